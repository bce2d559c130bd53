package dev.sluice.clickhouse.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fast paths of {@link WireOutput} write exactly what the general paths write. */
class WireOutputFastPathTest {

    private static byte[] slow(byte[] src, int off, int len) {
        WireOutput out = new WireOutput(16);
        out.writeVarUInt(len);
        out.writeBytes(src, off, len);
        return out.toByteArray();
    }

    @Test
    void matchesVarUIntThenBytesForEveryLengthClass() {
        byte[] src = new byte[40_000];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (i * 31);
        }
        for (int len : new int[] {0, 1, 127, 128, 200, 16383, 16384, 39_990}) {
            WireOutput out = new WireOutput(16);
            out.writeString(src, 7, len);

            assertThat(out.toByteArray()).as("len %d", len).isEqualTo(slow(src, 7, len));
        }
    }

    @Test
    void splitsAcrossDrainsExactlyLikeTheSlowPath() {
        byte[] src = new byte[300];
        Arrays.fill(src, (byte) 'x');
        WireOutput collected = new WireOutput(64);
        WireOutput draining =
                new WireOutput(100, (buf, off, len) -> collected.writeBytes(buf, off, len));
        WireOutput expected = new WireOutput(64);
        for (int len : new int[] {90, 5, 200, 130, 0, 99}) {
            draining.writeString(src, 0, len);
            expected.writeBytes(slow(src, 0, len));
        }
        draining.flush();

        assertThat(collected.toByteArray()).isEqualTo(expected.toByteArray());
    }

    @Test
    void aBadRangeThrowsAndWritesNothing() {
        WireOutput out = new WireOutput(64);

        assertThatThrownBy(() -> out.writeString(new byte[4], 2, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(out.position()).isZero();
    }

    @Test
    void largeWritesDrainInWholeBuffersWithTheSameBoundaries() {
        byte[] src = new byte[1000];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) i;
        }
        List<Integer> sizes = new ArrayList<>();
        WireOutput collected = new WireOutput(64);
        WireOutput draining =
                new WireOutput(
                        100,
                        (buf, off, len) -> {
                            sizes.add(len);
                            collected.writeBytes(buf, off, len);
                        });

        draining.writeBytes(src, 0, 30); // partly filled: the next write tops it up first
        draining.writeBytes(src, 30, 950); // then 8 whole buffers straight from src, 80 left
        draining.writeByte(7);
        draining.flush();

        assertThat(sizes).containsExactly(100, 100, 100, 100, 100, 100, 100, 100, 100, 81);
        byte[] expected = Arrays.copyOf(src, 981);
        expected[980] = 7;
        assertThat(collected.toByteArray()).isEqualTo(expected);
        assertThat(draining.totalWritten()).isEqualTo(981);
    }
}
