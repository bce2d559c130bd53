package dev.sluice.bench;

import dev.sluice.clickhouse.compress.CityHash128;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * CityHash128 v1.0.2, the frame checksum, over random inputs of {@code size} bytes. Throughput in
 * ops/us; the aux counter {@code hashedBytes} is bytes/us = MB/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CityHash128Bench {
    @Param({"64", "1048576"})
    public int size;

    private byte[] input;

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long hashedBytes;

        @Setup(Level.Iteration)
        public void clear() {
            hashedBytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        input = new byte[size];
        new SplittableRandom(1).nextBytes(input);
    }

    @Benchmark
    public long hash(Bytes bytes) {
        CityHash128.Hash128 h = CityHash128.hash(input, 0, size);
        bytes.hashedBytes += size;
        return h.low() ^ h.high();
    }
}
