package dev.sluice.clickhouse.compress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.compress.TestFrames.Frame;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

class FrameRoundTripTest {

    private static final int MIB = 1 << 20;

    /**
     * Uniform over 1 byte .. 3 MiB (jqwik's default integer generation favours small values and
     * would rarely cross a frame boundary), plus small inputs and the sizes at frame boundaries.
     */
    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(
                        3,
                        Arbitraries.integers()
                                .between(1, 3 * MIB)
                                .withDistribution(RandomDistribution.uniform())),
                Tuple.of(1, Arbitraries.integers().between(1, 4096)),
                Tuple.of(1, Arbitraries.of(MIB - 1, MIB, MIB + 1, 2 * MIB, 3 * MIB)));
    }

    @Property(tries = 100)
    void framesDecodeToTheInput(
            @ForAll CompressionMethod method, @ForAll("sizes") int size, @ForAll long seed)
            throws IOException {
        byte[] data = TestFrames.sample(seed, size);
        byte[] frames = TestFrames.encode(method, data);

        List<Frame> parsed = TestFrames.parse(frames);
        assertThat(parsed).hasSize((size + MIB - 1) / MIB);
        for (int i = 0; i < parsed.size(); i++) {
            Frame f = parsed.get(i);
            assertThat(f.methodByte()).isEqualTo(method.methodByte());
            int expected = i < parsed.size() - 1 ? MIB : size - i * MIB;
            assertThat(f.uncompressedSize()).isEqualTo(expected);
        }

        // Reads of random lengths, so that reads end inside and exactly at frame boundaries.
        Random r = new Random(seed);
        byte[] decoded = new byte[size];
        try (FrameInputStream in = new FrameInputStream(new ByteArrayInputStream(frames))) {
            int done = 0;
            while (done < size) {
                int n = in.read(decoded, done, Math.min(size - done, 1 + r.nextInt(MIB + MIB / 2)));
                assertThat(n).isPositive();
                done += n;
            }
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThat(decoded).isEqualTo(data);
    }
}
