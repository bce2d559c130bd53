package dev.sluice.bench;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.format.RowBinaryWriter;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.rigs.data.EventsData;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Client-side cost of encoding the events rows, per row (one op = one row; each invocation handles
 * {@link #BATCH} rows).
 *
 * <ul>
 *   <li>{@code nativeAppendAndWrite}: the Native path as an insert runs it: append the decoded
 *       values to the five column buffers, then write the block.
 *   <li>{@code nativeWriteOnly}: only the block write, from columns filled once.
 *   <li>{@code rowBinaryDirect}: RowBinary as a row-oriented client writes it: each row straight
 *       from the arrays into the output, no columns.
 *   <li>{@code rowBinaryFromColumns}: {@link RowBinaryWriter} over columns filled once.
 * </ul>
 *
 * {@code output}: {@code growable} keeps the whole batch in one buffer (~15 MiB: memory bound);
 * {@code drain1MiB} is what a connection does: a 1 MiB buffer handed to a consumer whenever it
 * fills. The consumer here discards, so the compressor's read of the bytes is not part of the
 * numbers (CompressionBench measures it); a String column's bulk data goes to the consumer straight
 * from the column's array, so {@code nativeWriteOnly} is then nearly free. The encoded sizes
 * (bytes/row) are printed once per fork.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EventsEncodeBench {
    /** Rows per invocation. */
    public static final int BATCH = 65536;

    /** 18.16's protocol revision: Data packets carry BlockInfo, no custom-serialization byte. */
    static final int REVISION = 54412;

    @Param({"drain1MiB", "growable"})
    public String output;

    /**
     * Rows per Native block: the batch is cut into blocks of this many rows. A block's column
     * buffers are the staging area the Native path writes before encoding; at 65536 rows they
     * outgrow the L2 cache, at 4096 they fit.
     */
    @Param({"65536", "4096"})
    public int blockRows;

    private EventsData data;
    private Block work;
    private Block filled;
    private RowBinaryWriter fromColumns;
    private WireOutput out;
    private long drained;

    @Setup(Level.Trial)
    public void setUp() {
        data = EventsData.generate(BATCH, EventsData.DEFAULT_SEED);
        work = EventsData.newBlock();
        filled = EventsData.newBlock();
        data.appendTo(filled, 0, BATCH);
        data.appendTo(work, 0, blockRows); // grow the buffers once, as in steady state
        fromColumns = RowBinaryWriter.forBlock(filled);
        out =
                output.equals("growable")
                        ? new WireOutput(32 << 20)
                        : new WireOutput(1 << 20, (buf, off, len) -> drained += len);
        printSizes();
    }

    private void printSizes() {
        WireOutput n = new WireOutput(32 << 20);
        NativeBlockCodec.write(filled, n, REVISION);
        WireOutput rb = new WireOutput(32 << 20);
        data.writeRowBinary(rb, 0, BATCH);
        System.out.printf(
                "%nbytes/row over %d rows: Native %.2f, RowBinary %.2f%n",
                BATCH, (double) n.position() / BATCH, (double) rb.position() / BATCH);
    }

    private long finish() {
        long n = drained + out.position();
        out.flush();
        out.reset();
        drained = 0;
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long nativeAppendAndWrite() {
        for (int from = 0; from < BATCH; from += blockRows) {
            work.reset();
            data.appendTo(work, from, from + blockRows);
            NativeBlockCodec.write(work, out, REVISION);
        }
        return finish();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long nativeWriteOnly() {
        NativeBlockCodec.write(filled, out, REVISION);
        return finish();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long rowBinaryDirect() {
        data.writeRowBinary(out, 0, BATCH);
        return finish();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long rowBinaryFromColumns() {
        fromColumns.writeAll(out);
        return finish();
    }
}
