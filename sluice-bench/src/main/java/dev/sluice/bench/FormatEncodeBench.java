package dev.sluice.bench;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.format.InputFormat;
import dev.sluice.clickhouse.format.RowFormat;
import dev.sluice.clickhouse.format.TextFormat;
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
 * The format match-up, client side: the events rows ({@link EventsData}) encoded from filled column
 * buffers in each HTTP input format, per row (one op = one row; an invocation encodes {@link
 * #BATCH} rows into a 1 MiB buffer that drains to a byte counter, as an HTTP body does).
 *
 * <p>The text formats build their writer trees once ({@code encoderFor}); each invocation only runs
 * them. {@code Native} is the HTTP body layout (revision 0). The encoded size of each format
 * (bytes/row) is printed once per fork; {@code JSONEachRow/bare64} writes UInt64 unquoted.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FormatEncodeBench {
    /** Rows per invocation. */
    public static final int BATCH = 65536;

    @Param({
        "Native",
        "RowBinary",
        "RowBinaryWithNamesAndTypes",
        "TabSeparated",
        "CSV",
        "Values",
        "JSONEachRow",
        "JSONEachRow/bare64",
        "JSONCompactEachRow"
    })
    public String format;

    private Block filled;
    private InputFormat encoder;
    private WireOutput out;
    private long drained;

    @Setup(Level.Trial)
    public void setUp() {
        EventsData data = EventsData.generate(BATCH, EventsData.DEFAULT_SEED);
        filled = EventsData.newBlock();
        data.appendTo(filled, 0, BATCH);
        encoder = encoder(format, filled);
        out = new WireOutput(1 << 20, (buf, off, len) -> drained += len);
        WireOutput whole = new WireOutput(64 << 20);
        encoder.write(filled, whole);
        System.out.printf(
                "%n%s: %.2f bytes/row over %d rows%n",
                format, (double) whole.position() / BATCH, BATCH);
    }

    /** The format for {@code label}, bound to {@code block} where it has an encoder. */
    static InputFormat encoder(String label, Block block) {
        if (label.equals("Native")) {
            return InputFormat.NATIVE;
        }
        if (label.equals("JSONEachRow/bare64")) {
            TextFormat bare = Formats.JSON_EACH_ROW.withQuoted64BitIntegers(false);
            return bare.encoderFor(block);
        }
        return ((RowFormat) Formats.byName(label)).encoderFor(block);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long encode() {
        encoder.write(filled, out);
        long n = drained + out.position();
        out.flush();
        out.reset();
        drained = 0;
        return n;
    }
}
