package dev.sluice.clickhouse.format;

import static dev.sluice.clickhouse.format.FormatTestSupport.block;
import static dev.sluice.clickhouse.format.FormatTestSupport.bytes;
import static dev.sluice.clickhouse.format.FormatTestSupport.col;
import static dev.sluice.clickhouse.format.FormatTestSupport.list;
import static dev.sluice.clickhouse.format.FormatTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The registry, the binary variants' bytes, and how encoders behave as objects. */
class FormatsTest {

    @Test
    void lookupIgnoresCaseAndKnowsTheServerAliases() {
        assertThat(Formats.byName("csv")).isSameAs(Formats.CSV);
        assertThat(Formats.byName(" TabSeparated ")).isSameAs(Formats.TAB_SEPARATED);
        assertThat(Formats.byName("tsv")).isSameAs(Formats.TAB_SEPARATED);
        assertThat(Formats.byName("TSVWithNamesAndTypes"))
                .isSameAs(Formats.TAB_SEPARATED_WITH_NAMES_AND_TYPES);
        assertThat(Formats.byName("ndjson").clickHouseName()).isEqualTo("JSONEachRow");
        assertThat(Formats.byName("native")).isSameAs(InputFormat.NATIVE);
        assertThat(InputFormat.byName("rowbinarywithnamesandtypes"))
                .isSameAs(Formats.ROW_BINARY_WITH_NAMES_AND_TYPES);
        assertThat(Formats.find("Parquet")).isEmpty();
        assertThatThrownBy(() -> Formats.byName("Parquet"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Parquet")
                .hasMessageContaining("JSONCompactEachRow");
        assertThat(Formats.names())
                .containsExactly(
                        "Native",
                        "RowBinary",
                        "RowBinaryWithNamesAndTypes",
                        "TabSeparated",
                        "TabSeparatedWithNames",
                        "TabSeparatedWithNamesAndTypes",
                        "CSV",
                        "CSVWithNames",
                        "Values",
                        "JSONEachRow",
                        "JSONCompactEachRow");
    }

    @Test
    void formatsByServerVersion() {
        assertThat(Formats.inputFormatsOf(18, 16))
                .contains(
                        "Native",
                        "RowBinary",
                        "TabSeparated",
                        "TSV",
                        "CSV",
                        "Values",
                        "JSONEachRow")
                .doesNotContain("RowBinaryWithNamesAndTypes", "JSONCompactEachRow");
        assertThat(Formats.inputFormatsOf(19, 3))
                .contains("RowBinaryWithNamesAndTypes")
                .doesNotContain("JSONCompactEachRow");
        assertThat(Formats.inputFormatsOf(24, 8))
                .contains("RowBinaryWithNamesAndTypes", "JSONCompactEachRow");
    }

    /** RowBinaryWithNamesAndTypes: VarUInt count, the names, the types (each a String), rows. */
    @Test
    void rowBinaryWithNamesAndTypesBytes() {
        Block b = block(col("id", "UInt8", 1L, 2L), col("s", "Nullable(String)", "x", null));
        assertThat(HexFormat.of().formatHex(bytes(Formats.ROW_BINARY_WITH_NAMES_AND_TYPES, b)))
                .isEqualTo(
                        "02"
                                + "02"
                                + "6964" // "id"
                                + "01"
                                + "73" // "s"
                                + "05"
                                + "55496e7438" // "UInt8"
                                + "10"
                                + "4e756c6c61626c6528537472696e6729" // "Nullable(String)"
                                + "01"
                                + "00"
                                + "01"
                                + "78" // 1, "x"
                                + "02"
                                + "01"); // 2, NULL
        assertThat(HexFormat.of().formatHex(bytes(Formats.ROW_BINARY, b)))
                .isEqualTo("01000178" + "0201");
    }

    /** The header carries the block's type names as the server spelled them. */
    @Test
    void headersUseTheBlocksTypeNames() {
        Column c = ColumnFactory.create("d", "Decimal(9, 2)");
        c.appendBigDecimal(new BigDecimal("1.5"));
        Block b = new Block(List.of(c), List.of("Decimal(9, 2)"));
        assertThat(text(Formats.TAB_SEPARATED_WITH_NAMES_AND_TYPES, b))
                .isEqualTo("d\nDecimal(9, 2)\n1.50\n");
    }

    @Test
    void anEncoderServesItsBlockAgainAfterRefills() {
        Block b = block(col("k", "UInt32", 1L), col("s", "LowCardinality(String)", "a"));
        BlockEncoder enc = Formats.JSON_COMPACT_EACH_ROW.encoderFor(b);
        assertThat(text(enc, b)).isEqualTo("[1,\"a\"]\n");
        b.reset();
        for (int i = 0; i < 3; i++) {
            b.column(0).appendLong(10 + i);
            b.column(1).appendString("v" + i);
        }
        assertThat(text(enc, b)).isEqualTo("[10,\"v0\"]\n[11,\"v1\"]\n[12,\"v2\"]\n");
        // The same columns in a new Block object are fine; other columns are not.
        assertThat(text(enc, new Block(b.columns(), b.typeNames()))).startsWith("[10,");
        Block other = block(col("k", "UInt32", 1L), col("s", "LowCardinality(String)", "a"));
        assertThatThrownBy(() -> enc.write(other, new WireOutput(16)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JSONCompactEachRow");
        assertThat(enc.clickHouseName()).isEqualTo("JSONCompactEachRow");
    }

    @Test
    void rowsCanBeWrittenInRanges() {
        Block b = block(col("k", "UInt8", 1L, 2L, 3L));
        BlockEncoder enc = Formats.VALUES.encoderFor(b);
        WireOutput out = new WireOutput(16);
        enc.writeRows(0, 1, out);
        enc.writeRows(1, 3, out);
        assertThat(new String(out.toByteArray())).isEqualTo("(1),(2),(3)");
        assertThatThrownBy(() -> enc.writeRows(2, 4, out))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** A 64-byte draining output (flushes mid-value) gives the bytes a growable one does. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "RowBinary",
                "RowBinaryWithNamesAndTypes",
                "TabSeparatedWithNamesAndTypes",
                "CSVWithNames",
                "Values",
                "JSONEachRow",
                "JSONCompactEachRow"
            })
    void drainingOutputGivesTheSameBytes(String name) {
        Block b = mixedBlock(500);
        InputFormat f = Formats.byName(name);
        byte[] whole = bytes(f, b);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        WireOutput draining = new WireOutput(64, (buf, off, len) -> sink.write(buf, off, len));
        f.write(b, draining);
        draining.flush();
        assertThat(sink.toByteArray()).isEqualTo(whole);
    }

    private static Block mixedBlock(int rows) {
        Block b =
                block(
                        col("k", "UInt64"),
                        col("s", "String"),
                        col("f", "Float64"),
                        col("d", "Decimal(38, 10)"),
                        col("u", "UUID"),
                        col("a", "Array(Nullable(String))"),
                        col("lc", "LowCardinality(Nullable(String))"),
                        col("t", "Tuple(String, Date)"));
        for (int r = 0; r < rows; r++) {
            b.column(0).appendLong(r * 1_000_003L);
            b.column(1).appendString("s\t\"'" + "x".repeat(r % 90) + r);
            b.column(2).appendDouble(r / 7.0);
            b.column(3).appendBigDecimal(BigDecimal.valueOf(-r, 3));
            b.column(4).appendUuid(r, -r);
            dev.sluice.clickhouse.column.ColumnValues.append(
                    b.column(5), r % 3 == 0 ? list() : list("e" + r, null));
            dev.sluice.clickhouse.column.ColumnValues.append(
                    b.column(6), r % 4 == 0 ? null : "v" + r % 5);
            dev.sluice.clickhouse.column.ColumnValues.append(b.column(7), list("t" + r, (long) r));
        }
        return b;
    }

    /** Writing rows allocates nothing per row, in every format (after warm-up). */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "RowBinary",
                "TabSeparated",
                "CSV",
                "Values",
                "JSONEachRow",
                "JSONCompactEachRow"
            })
    void encodingAllocatesNothingPerRow(String name) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Block b = mixedBlock(2000);
        BlockEncoder enc = ((RowFormat) Formats.byName(name)).encoderFor(b);
        WireOutput out = new WireOutput(1 << 16, (buf, off, len) -> {});
        for (int i = 0; i < 300; i++) {
            enc.writeAll(out); // warm up: compile, grow scratch buffers
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 50; i++) {
            enc.writeAll(out);
        }
        long perRow = (threads.getCurrentThreadAllocatedBytes() - before) / (50L * 2000);
        assertThat(perRow).as("bytes allocated per row").isZero();
    }

    @Test
    void uuidInJsonCompact() {
        UUID u = UUID.fromString("00000000-0000-0001-ffff-ffffffffffff");
        assertThat(text(Formats.JSON_COMPACT_EACH_ROW, "UUID", u))
                .isEqualTo("[\"00000000-0000-0001-ffff-ffffffffffff\"]\n");
    }
}
