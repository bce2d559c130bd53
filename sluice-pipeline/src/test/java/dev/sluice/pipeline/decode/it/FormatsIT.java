package dev.sluice.pipeline.decode.it;

import static dev.sluice.pipeline.decode.it.EdgeFile.EMPTY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.it.EdgeFile.Quoted;
import dev.sluice.pipeline.decode.it.EdgeFile.Tup;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same file of edge values for every column type ClickHouse 18.16 has, loaded twice: decoded by
 * Sluice and inserted as a Native block, and inserted by {@code clickhouse-client ... FORMAT X}
 * into a twin table. Both tables must then hold the same rows, compared column by column as the
 * server prints them. The inputs where the two readers disagree on purpose are kept out of this
 * file and pinned, both ways, by {@link DifferencesIT}.
 */
class FormatsIT {
    private static final String COLUMNS =
            "key UInt32, i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32,"
                    + " u64 UInt64, f32 Float32, f64 Float64, d32 Decimal(9, 4), d64 Decimal(18, 8),"
                    + " d128 Decimal(38, 10), s String, fs FixedString(8), d Date, dt DateTime,"
                    + " dtk DateTime('Asia/Kolkata'), uuid UUID,"
                    + " e8 Enum8('a' = -128, 'b' = 0, 'c d' = 127),"
                    + " e16 Enum16('lo' = -32768, 'hi' = 32767), ni Nullable(Int32),"
                    + " ns Nullable(String), nd Nullable(Date), ai Array(Int32),"
                    + " aas Array(Array(String)), ans Array(Nullable(String)), adt Array(DateTime),"
                    + " t Tuple(String, Int64), lc LowCardinality(String),"
                    + " lcn LowCardinality(Nullable(String)), n Nested(a UInt8, b String)";

    /** The input fields, in table order (the Nested column is two arrays). */
    private static final List<String> NAMES =
            List.of(
                    "key", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
                    "d32", "d64", "d128", "s", "fs", "d", "dt", "dtk", "uuid", "e8", "e16", "ni",
                    "ns", "nd", "ai", "aas", "ans", "adt", "t", "lc", "lcn", "n.a", "n.b");

    private static final String NASTY =
            "tab\there new\nline back\\slash quote' dq\" nul\0 cr\r end";

    private static List<Object[]> rows(boolean json) {
        List<Object[]> rows = new ArrayList<>();
        // zeros, empties, the epoch
        rows.add(
                new Object[] {
                    1L,
                    0L,
                    0L,
                    EMPTY,
                    0L,
                    0L,
                    0L,
                    0L,
                    EMPTY,
                    0.0,
                    EMPTY,
                    new BigDecimal("0"),
                    json ? new BigDecimal("0") : EMPTY,
                    new BigDecimal("0.0000000000"),
                    "",
                    "",
                    "1970-01-01",
                    "1970-01-01 00:00:00",
                    "1970-01-01 05:30:00",
                    "00000000-0000-0000-0000-000000000000",
                    "b",
                    "lo",
                    0L,
                    "",
                    "1970-01-01",
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    new Tup(List.of("", 0L)),
                    "",
                    "",
                    List.of(),
                    List.of()
                });
        // minimums
        rows.add(
                new Object[] {
                    2L,
                    -128L,
                    -32768L,
                    (long) Integer.MIN_VALUE,
                    Long.MIN_VALUE,
                    0L,
                    0L,
                    0L,
                    0L,
                    (double) -Float.MAX_VALUE,
                    -Double.MAX_VALUE,
                    new BigDecimal("-99999.9999"),
                    new BigDecimal("-9999999999.99999999"),
                    new BigDecimal("-9999999999999999999999999999.9999999999"),
                    "plain",
                    "12345678",
                    "1970-01-02",
                    "1970-01-01 00:00:01",
                    "2000-01-01 05:30:00",
                    "ffffffff-ffff-ffff-ffff-ffffffffffff",
                    "a",
                    "lo",
                    (long) Integer.MIN_VALUE,
                    null,
                    null,
                    List.of(),
                    List.of(List.of()),
                    Arrays.asList((Object) null),
                    List.of("1970-01-01 00:00:01"),
                    new Tup(List.of("min", Long.MIN_VALUE)),
                    "x",
                    null,
                    List.of(0L),
                    List.of("")
                });
        // maximums
        rows.add(
                new Object[] {
                    3L,
                    127L,
                    32767L,
                    (long) Integer.MAX_VALUE,
                    new Quoted(Long.MAX_VALUE),
                    255L,
                    65535L,
                    4294967295L,
                    new BigInteger("18446744073709551615"),
                    (double) Float.MAX_VALUE,
                    Double.MAX_VALUE,
                    new BigDecimal("99999.9999"),
                    new BigDecimal("9999999999.99999999"),
                    new BigDecimal("9999999999999999999999999999.9999999999"),
                    "naïve café 日本語 🦀",
                    "abc",
                    "2105-12-31",
                    "2105-12-31 23:59:59",
                    "2105-12-31 23:59:59",
                    "550e8400-e29b-41d4-a716-446655440000",
                    "c d",
                    "hi",
                    (long) Integer.MAX_VALUE,
                    "日本",
                    "2105-12-31",
                    List.of((long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE, 0L),
                    List.of(List.of("a", "b,c"), List.of(), List.of("it's", "[x]", "NULL")),
                    Arrays.asList("x", null, "y"),
                    List.of("2105-12-31 23:59:59", "2024-02-29 12:00:00"),
                    new Tup(List.of("max", new Quoted(Long.MAX_VALUE))),
                    "y",
                    "z",
                    List.of(255L, 1L),
                    List.of("p", "q")
                });
        // the characters every format escapes or quotes
        rows.add(
                new Object[] {
                    4L,
                    -1L,
                    -1L,
                    -1L,
                    new Quoted(-1L),
                    1L,
                    1L,
                    1L,
                    new Quoted(new BigInteger("9223372036854775808")),
                    1.5,
                    0.1,
                    new BigDecimal("0.0001"),
                    new BigDecimal("1.5"),
                    new BigDecimal("-0.0000000001"),
                    NASTY,
                    "ab\0c",
                    "2024-02-29",
                    "2024-02-29 12:34:56",
                    "2024-02-29 12:34:56",
                    "550E8400-E29B-41D4-A716-446655440000",
                    "b",
                    "hi",
                    null,
                    NASTY,
                    "2024-02-29",
                    List.of(1L, -1L),
                    List.of(List.of(NASTY, "\\N")),
                    Arrays.asList(NASTY, null),
                    List.of(),
                    new Tup(List.of(NASTY, -5L)),
                    NASTY,
                    NASTY,
                    List.of(7L),
                    List.of(NASTY)
                });
        // floats: the smallest Float32, the smallest normal Float64 (18.16 reads the subnormal
        // Double.MIN_VALUE as 0: DifferencesIT), and, outside JSON, infinities and NaN
        rows.add(
                new Object[] {
                    5L,
                    5L,
                    5L,
                    5L,
                    5L,
                    5L,
                    5L,
                    5L,
                    5L,
                    (double) Float.MIN_VALUE,
                    2.2250738585072014E-308,
                    new BigDecimal("-0.0001"),
                    new BigDecimal("0.00000001"),
                    new BigDecimal("12345678901234567890.0123456789"),
                    "x",
                    "x",
                    "2000-01-01",
                    "2000-01-01 00:00:00",
                    "2000-01-01 00:00:00",
                    "123e4567-e89b-12d3-a456-426614174000",
                    "a",
                    "lo",
                    5L,
                    "five",
                    "2000-01-01",
                    List.of(5L),
                    List.of(List.of("5")),
                    List.of("5"),
                    List.of("2000-01-01 00:00:00"),
                    new Tup(List.of("5", 5L)),
                    "x",
                    "x",
                    List.of(5L),
                    List.of("5")
                });
        rows.add(
                new Object[] {
                    6L,
                    6L,
                    6L,
                    6L,
                    6L,
                    6L,
                    6L,
                    6L,
                    6L,
                    json ? 1e-7 : Double.POSITIVE_INFINITY,
                    json ? 123456.789 : Double.NaN,
                    new BigDecimal("1"),
                    new BigDecimal("-1"),
                    new BigDecimal("1"),
                    "x",
                    "x",
                    "2000-01-01",
                    "2000-01-01 00:00:00",
                    "2000-01-01 00:00:00",
                    "123e4567-e89b-12d3-a456-426614174000",
                    "a",
                    "lo",
                    6L,
                    "six",
                    null,
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    new Tup(List.of("", 6L)),
                    "",
                    "",
                    List.of(),
                    List.of()
                });
        rows.add(
                new Object[] {
                    7L,
                    7L,
                    7L,
                    7L,
                    7L,
                    7L,
                    7L,
                    7L,
                    7L,
                    json ? -2.5 : Double.NEGATIVE_INFINITY,
                    json ? -1e300 : Double.NEGATIVE_INFINITY,
                    new BigDecimal("2"),
                    new BigDecimal("2"),
                    new BigDecimal("2"),
                    "x",
                    "x",
                    "2000-01-01",
                    "2000-01-01 00:00:00",
                    "2000-01-01 00:00:00",
                    "123e4567-e89b-12d3-a456-426614174000",
                    "a",
                    "lo",
                    7L,
                    "seven",
                    null,
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    new Tup(List.of("", 7L)),
                    "",
                    "",
                    List.of(),
                    List.of()
                });
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"TabSeparated", "TSVWithNames", "CSV", "CSVWithNames", "JSONEachRow"})
    void sluiceLoadsWhatClickHouseLoads(String format) throws RecordException {
        String ours = TestServer.newTable("formats_ours");
        String twin = TestServer.newTable("formats_twin");
        boolean json = format.equals("JSONEachRow");
        boolean csv = format.startsWith("CSV");
        // ClickHouse spreads a tuple over several CSV fields, Sluice reads one (DifferencesIT)
        String columns = csv ? COLUMNS.replace(" t Tuple(String, Int64),", "") : COLUMNS;
        List<String> names = new ArrayList<>(NAMES);
        List<Object[]> rows = rows(json);
        if (csv) {
            int t = names.indexOf("t");
            names.remove(t);
            rows.replaceAll(r -> without(r, t));
        }
        byte[] file =
                switch (format) {
                    case "TabSeparated" -> EdgeFile.tsv(names, rows, false);
                    case "TSVWithNames" -> EdgeFile.tsv(names, rows, true);
                    case "CSV" -> EdgeFile.csv(names, rows, false);
                    case "CSVWithNames" -> EdgeFile.csv(names, rows, true);
                    default -> EdgeFile.ndjson(names, rows);
                };
        try (NativeConnection c = TestServer.connect()) {
            c.execute("CREATE TABLE " + ours + " (" + columns + ") ENGINE = Memory");
            c.execute("CREATE TABLE " + twin + " (" + columns + ") ENGINE = Memory");
            TestServer.clickhouseClient("INSERT INTO " + twin + " FORMAT " + format, file);

            TableSchema schema = SchemaDiscovery.describe(c, ours);
            boolean header = format.endsWith("WithNames");
            Format f = json ? Format.JSON : csv ? Format.CSV : Format.TSV;
            DecodeSpec spec = new DecodeSpec(f, List.of(), header, Map.of(), false, ',');
            TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), schema);
            Decoder decoder = DecoderFactory.create(spec, target);
            PolledRecords batch = Records.split(file, f == Format.CSV);
            Rows decoded = new Rows(target);
            if (header) {
                decoder.header(batch, 0);
                batch = Records.drop(batch, 1);
            }
            decoded.decode(decoder, batch);
            assertThat(decoded.errors).as("records Sluice rejected").isEmpty();
            Block block = decoded.block;
            assertThat(block.rows()).isEqualTo(rows.size());
            c.insert(ours, block, Map.of(), null);
        }
        String select = "SELECT * FROM %s ORDER BY key FORMAT TabSeparated";
        List<String> expected = lines(TestServer.clickhouseClient(select.formatted(twin)));
        List<String> actual = lines(TestServer.clickhouseClient(select.formatted(ours)));
        assertThat(actual).hasSameSizeAs(expected).hasSize(rows.size());
        for (int r = 0; r < expected.size(); r++) {
            String[] e = expected.get(r).split("\t", -1);
            String[] a = actual.get(r).split("\t", -1);
            for (int col = 0; col < names.size(); col++) {
                assertThat(a[col])
                        .as("%s row %d column %s", format, r + 1, names.get(col))
                        .isEqualTo(e[col]);
            }
        }
    }

    private static Object[] without(Object[] row, int i) {
        List<Object> l = new ArrayList<>(Arrays.asList(row));
        l.remove(i);
        return l.toArray();
    }

    private static List<String> lines(String out) {
        List<String> lines = new ArrayList<>(Arrays.asList(out.split("\n", -1)));
        lines.removeIf(String::isEmpty);
        return lines;
    }
}
