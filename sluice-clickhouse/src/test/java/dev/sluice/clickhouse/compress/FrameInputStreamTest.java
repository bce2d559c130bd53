package dev.sluice.clickhouse.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class FrameInputStreamTest {

    private static final byte[] DATA = TestFrames.sample(11, 500);

    @ParameterizedTest
    @ValueSource(strings = {"lz4", "lz4_hc", "lz4hc", "zstd", "none"})
    void decodesGoldenFrames(String method) throws IOException {
        Path dir = Golden.dir("ch-go/compress/golden");
        byte[] raw = Golden.read(dir.resolve("data_raw.raw"));
        byte[] frames = Golden.read(dir.resolve("data_compressed_" + method + ".raw"));
        assertThat(TestFrames.decode(frames)).isEqualTo(raw);
        try (FrameInputStream in = new FrameInputStream(WireInput.of(frames))) {
            assertThat(in.readAllBytes()).isEqualTo(raw);
        }
    }

    /** ClickHouse's TCP reader accepts a different codec in every frame; so must we. */
    @Test
    void methodsMayChangeFromFrameToFrame() {
        byte[] big = TestFrames.sample(5, (1 << 20) + 5);
        byte[] small = TestFrames.sample(6, 10);
        byte[] stream =
                concat(
                        TestFrames.encode(CompressionMethod.ZSTD, big),
                        TestFrames.encode(CompressionMethod.NONE, small),
                        TestFrames.encode(CompressionMethod.LZ4, big),
                        TestFrames.encode(CompressionMethod.NONE, big));
        assertThat(TestFrames.decode(stream)).isEqualTo(concat(big, small, big, big));
    }

    @Test
    void readsReturnAtMostTheCurrentFrame() throws IOException {
        byte[] stream =
                concat(
                        TestFrames.encode(CompressionMethod.NONE, Arrays.copyOf(DATA, 100)),
                        TestFrames.encode(CompressionMethod.LZ4, Arrays.copyOf(DATA, 50)));
        byte[] buf = new byte[1000];
        try (FrameInputStream in = new FrameInputStream(new ByteArrayInputStream(stream))) {
            assertThat(in.available()).isZero();
            assertThat(in.read(buf, 0, 0)).isZero();
            assertThat(in.read()).isEqualTo(DATA[0] & 0xFF);
            assertThat(in.available()).isEqualTo(99);
            assertThat(in.read(buf, 1, 999)).isEqualTo(99);
            assertThat(in.available()).isZero();
            assertThat(in.read(buf, 0, 1000)).isEqualTo(50);
            assertThat(Arrays.copyOf(buf, 50)).isEqualTo(Arrays.copyOf(DATA, 50));
            assertThat(in.read(buf, 0, 1000)).isEqualTo(-1);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /**
     * On a connection the bytes after a frame belong to the next packet and may not have arrived:
     * asking for them would block. The source below fails if asked for anything it was not yet
     * allowed to give.
     */
    @Test
    void neverRequestsBytesBeyondTheCurrentFrame() throws IOException {
        byte[] a = TestFrames.encode(CompressionMethod.NONE, Arrays.copyOf(DATA, 100));
        byte[] b = TestFrames.encode(CompressionMethod.LZ4, TestFrames.sample(1, 5000));
        byte[] c = TestFrames.encode(CompressionMethod.ZSTD, TestFrames.sample(2, 3000));
        GuardedStream source = new GuardedStream(concat(a, b, c));
        byte[] buf = new byte[1 << 16];
        try (FrameInputStream in = new FrameInputStream(source)) {
            source.allowed = a.length;
            readExactly(in, buf, 100);
            assertThat(source.pos).isEqualTo(a.length);
            assertThat(source.furthestRequested).isEqualTo(a.length);

            source.allowed += b.length;
            assertThat(readInLargeChunks(in, buf)).isEqualTo(5000);
            assertThat(source.furthestRequested).isEqualTo(a.length + b.length);

            source.allowed += c.length;
            assertThat(readInLargeChunks(in, buf)).isEqualTo(3000);
            assertThat(source.furthestRequested).isEqualTo(a.length + b.length + c.length);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /** Reads with oversized requests until the current frame is used up. */
    private static int readInLargeChunks(FrameInputStream in, byte[] buf) throws IOException {
        int total = in.read(buf, 0, buf.length);
        while (in.available() > 0) {
            total += in.read(buf, 0, buf.length);
        }
        return total;
    }

    private static void readExactly(InputStream in, byte[] buf, int n) throws IOException {
        for (int done = 0; done < n; ) {
            done += in.read(buf, done, n - done);
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void everySingleByteCorruptionIsDetected(CompressionMethod method) {
        byte[] frame = TestFrames.encode(method, DATA);
        for (int i = 0; i < frame.length; i++) {
            for (int flip : new int[] {0x01, 0x80}) {
                byte[] bad = frame.clone();
                bad[i] ^= (byte) flip;
                String where = "byte " + i + " ^ " + flip;
                var thrown =
                        assertThatThrownBy(() -> TestFrames.decode(bad))
                                .as(where)
                                .isInstanceOf(WireException.class);
                if (i < 17 || i >= 25) {
                    thrown.hasMessageStartingWith(
                            "checksum mismatch in compressed frame at byte 0: expected ");
                } else {
                    thrown.hasMessageContaining("frame").hasMessageContaining("at byte 0");
                }
            }
        }
    }

    @Test
    void checksumErrorNamesTheFrameOffsetAndBothHashes() {
        byte[] first = TestFrames.encode(CompressionMethod.LZ4, DATA);
        byte[] second = TestFrames.encode(CompressionMethod.LZ4, DATA);
        String stored = HexFormat.of().formatHex(Arrays.copyOf(second, 16));
        second[30] ^= 0x10;
        assertThatThrownBy(() -> TestFrames.decode(concat(first, second)))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith(
                        "checksum mismatch in compressed frame at byte " + first.length + ": ")
                .hasMessageContaining("got ");
        // Bytes of the stored checksum are little-endian; the message prints each half in hex.
        long low = Long.reverseBytes(Long.parseUnsignedLong(stored.substring(0, 16), 16));
        long high = Long.reverseBytes(Long.parseUnsignedLong(stored.substring(16), 16));
        assertThatThrownBy(() -> TestFrames.decode(concat(first, second)))
                .hasMessageContaining(String.format("expected %016x%016x,", low, high));
    }

    @Test
    void unknownMethodWithValidChecksumIsNamed() {
        byte[] frame = TestFrames.encode(CompressionMethod.LZ4, DATA);
        frame[16] = (byte) 0x91;
        TestFrames.reseal(frame, 0);
        assertThatThrownBy(() -> TestFrames.decode(frame))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("at byte 0")
                .hasMessageContaining("unknown compression method byte 0x91");
    }

    @Test
    void methodByteSwappedForAnotherKnownMethod() {
        byte[] frame = TestFrames.encode(CompressionMethod.LZ4, DATA);
        frame[16] = (byte) CompressionMethod.ZSTD.methodByte();
        assertThatThrownBy(() -> TestFrames.decode(frame))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith("checksum mismatch");
        TestFrames.reseal(frame, 0);
        assertThatThrownBy(() -> TestFrames.decode(frame))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith("corrupt ZSTD payload in compressed frame at byte 0");
    }

    @ParameterizedTest
    @EnumSource(CompressionMethod.class)
    void truncatedFramesAreReported(CompressionMethod method) {
        byte[] first = TestFrames.encode(method, DATA);
        byte[] frame = TestFrames.encode(method, DATA);
        assertThat(TestFrames.decode(new byte[0])).isEmpty();
        for (int len = 1; len < frame.length; len++) {
            byte[] cut = concat(first, Arrays.copyOf(frame, len));
            assertThatThrownBy(() -> TestFrames.decode(cut))
                    .as("cut at %d", len)
                    .isInstanceOf(WireException.class)
                    .hasMessageStartingWith(
                            "truncated compressed frame at byte " + first.length + ": ");
        }
    }

    @Test
    void sizesOutsideClickHouseLimitsAreCorruptHeaders() {
        assertCorruptHeader(17, 8, "compressed size 8 outside 9..1073741824");
        assertCorruptHeader(17, (1 << 30) + 1, "compressed size 1073741825");
        assertCorruptHeader(17, -1, "compressed size 4294967295");
        assertCorruptHeader(21, 0, "uncompressed size 0 outside 1..1073741824");
        assertCorruptHeader(21, (1 << 30) + 1, "uncompressed size 1073741825");
    }

    private static void assertCorruptHeader(int field, int value, String detail) {
        byte[] frame = TestFrames.encode(CompressionMethod.LZ4, DATA);
        TestFrames.putInt(frame, field, value);
        assertThatThrownBy(() -> TestFrames.decode(frame))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith("corrupt frame header at byte 0: " + detail);
    }

    /** Sizes that pass the limits but disagree with the payload, behind a valid checksum. */
    @ParameterizedTest
    @EnumSource(
            value = CompressionMethod.class,
            names = {"LZ4", "ZSTD"})
    void wrongUncompressedSizeIsDetected(CompressionMethod method) {
        for (int delta : new int[] {-1, 1, 1000}) {
            byte[] frame = TestFrames.encode(method, DATA);
            TestFrames.putInt(frame, 21, DATA.length + delta);
            TestFrames.reseal(frame, 0);
            assertThatThrownBy(() -> TestFrames.decode(frame))
                    .as("size %+d", delta)
                    .isInstanceOf(WireException.class)
                    .hasMessageContaining(method + " payload")
                    .hasMessageContaining("compressed frame at byte 0");
        }
    }

    @Test
    void noneFrameWhoseSizesDisagreeIsCorrupt() {
        byte[] frame = TestFrames.encode(CompressionMethod.NONE, DATA);
        TestFrames.putInt(frame, 21, DATA.length - 1);
        TestFrames.reseal(frame, 0);
        assertThatThrownBy(() -> TestFrames.decode(frame))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith("corrupt frame header at byte 0: NONE frame of 500");
    }

    @ParameterizedTest
    @EnumSource(
            value = CompressionMethod.class,
            names = {"LZ4", "ZSTD"})
    void garbagePayloadBehindValidChecksumIsCorrupt(CompressionMethod method) {
        byte[] frame = TestFrames.encode(method, DATA);
        Arrays.fill(frame, 25, frame.length, (byte) 0xFF);
        TestFrames.reseal(frame, 0);
        assertThatThrownBy(() -> TestFrames.decode(frame))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith(
                        "corrupt " + method + " payload in compressed frame at byte 0");
    }

    /** On a connection, offsets count from the start of the connection's stream. */
    @Test
    void offsetsFollowTheUnderlyingWireInput() throws IOException {
        byte[] good = TestFrames.encode(CompressionMethod.LZ4, DATA);
        byte[] bad = TestFrames.encode(CompressionMethod.LZ4, DATA);
        bad[40] ^= 1;
        WireInput wire = WireInput.of(concat(new byte[7], good, bad));
        wire.skipFully(7);
        FrameInputStream in = new FrameInputStream(wire);
        assertThat(in.readNBytes(DATA.length)).isEqualTo(DATA);
        assertThatThrownBy(in::read)
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith(
                        "checksum mismatch in compressed frame at byte " + (7 + good.length));
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** A source that fails a read request that starts at or after {@code allowed}. */
    private static final class GuardedStream extends InputStream {
        private final byte[] data;
        int allowed;
        int pos;
        long furthestRequested;

        GuardedStream(byte[] data) {
            this.data = data;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos == data.length) {
                return -1;
            }
            if (pos >= allowed) {
                throw new AssertionError("asked for bytes at " + pos + ", beyond the fed frames");
            }
            furthestRequested = Math.max(furthestRequested, (long) pos + len);
            int n = Math.min(len, allowed - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
