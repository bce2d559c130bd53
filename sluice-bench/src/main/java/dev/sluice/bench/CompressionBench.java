package dev.sluice.bench;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.compress.FrameEncoder;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.rigs.data.EventsData;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One compressed frame (checksum included) over 1 MiB of the events' Native bytes, as a connection
 * writes it. Throughput in ops/us; the aux counter {@code inputBytes} is then bytes/us, which is
 * MB/s (10^6 bytes) of uncompressed input. The compressed size is printed once per fork.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CompressionBench {
    static final int CHUNK = FrameEncoder.MAX_FRAME_INPUT;

    @Param({"LZ4", "ZSTD_1", "ZSTD_3", "NONE"})
    public String codec;

    private byte[] input;
    private FrameEncoder encoder;
    private WireOutput out;

    /** Uncompressed bytes encoded, reported as a rate next to ops/us. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long inputBytes;

        @Setup(Level.Iteration)
        public void clear() {
            inputBytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        EventsData data = EventsData.generate(8192, EventsData.DEFAULT_SEED);
        Block block = EventsData.newBlock();
        data.appendTo(block, 0, data.rows);
        WireOutput nativeBytes = new WireOutput(4 << 20);
        NativeBlockCodec.write(block, nativeBytes, EventsEncodeBench.REVISION);
        if (nativeBytes.position() < CHUNK) {
            throw new IllegalStateException("need 1 MiB of Native bytes");
        }
        input = java.util.Arrays.copyOf(nativeBytes.array(), CHUNK);
        String[] parts = codec.split("_");
        int level = parts.length > 1 ? Integer.parseInt(parts[1]) : 1;
        encoder = new FrameEncoder(CompressionMethod.parse(parts[0]), level);
        out = new WireOutput(2 * CHUNK);
        encoder.encode(input, 0, CHUNK, out);
        System.out.printf(
                "%n%s: 1 MiB of events Native -> %d bytes (ratio %.2f)%n",
                codec, out.position(), (double) CHUNK / out.position());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        encoder.close();
    }

    @Benchmark
    public int frame(Bytes bytes) {
        out.reset();
        encoder.encode(input, 0, CHUNK, out);
        bytes.inputBytes += CHUNK;
        return out.position();
    }
}
