package dev.sluice.clickhouse.format;

import static dev.sluice.clickhouse.format.FormatTestSupport.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whole rows: random blocks written in TSV and CSV and read back by a tiny reader must give back
 * every value, so no byte of a value is ever mistaken for a separator.
 */
class TextRowsPropertyTest {

    record Row(long id, String s, String ns, double f) {}

    @Provide
    Arbitrary<List<Row>> rows() {
        Arbitrary<String> text =
                Arbitraries.oneOf(
                        Arbitraries.strings().ofMaxLength(30),
                        Arbitraries.strings().withChars("\t\n\r\\'\",\0a\u2028").ofMaxLength(12));
        Arbitrary<Double> f =
                Arbitraries.oneOf(
                        Arbitraries.doubles(),
                        Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite),
                        Arbitraries.of(
                                Double.NaN,
                                Double.POSITIVE_INFINITY,
                                Double.NEGATIVE_INFINITY,
                                -0.0));
        return Combinators.combine(Arbitraries.longs(), text, text.injectNull(0.3), f)
                .as(Row::new)
                .list()
                .ofMaxSize(20);
    }

    private static Block block(List<Row> rows) {
        List<Column> cols =
                List.of(
                        ColumnFactory.create("id", "Int64"),
                        ColumnFactory.create("s", "String"),
                        ColumnFactory.create("ns", "Nullable(String)"),
                        ColumnFactory.create("f", "Float64"));
        for (Row r : rows) {
            cols.get(0).appendLong(r.id());
            cols.get(1).appendString(r.s());
            ColumnValues.append(cols.get(2), r.ns());
            cols.get(3).appendDouble(r.f());
        }
        return Block.of(cols);
    }

    private static double readFloat(String s) {
        return switch (s) {
            case "nan" -> Double.NaN;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Property
    void tsvRowsReadBack(@ForAll("rows") List<Row> rows) {
        List<List<byte[]>> parsed = TextParsers.tsvRows(bytes(Formats.TAB_SEPARATED, block(rows)));
        assertThat(parsed).hasSize(rows.size());
        List<Row> back = new ArrayList<>();
        for (List<byte[]> f : parsed) {
            assertThat(f).hasSize(4);
            String ns =
                    utf8(f.get(2)).equals("\\N")
                            ? null
                            : utf8(TextParsers.unescapeTsv(f.get(2), 0, f.get(2).length));
            back.add(
                    new Row(
                            Long.parseLong(utf8(f.get(0))),
                            utf8(TextParsers.unescapeTsv(f.get(1), 0, f.get(1).length)),
                            ns,
                            readFloat(utf8(f.get(3)))));
        }
        assertThat(back).isEqualTo(rows);
    }

    @Property
    void csvRowsReadBack(@ForAll("rows") List<Row> rows) {
        List<List<byte[]>> parsed = TextParsers.csvRows(bytes(Formats.CSV, block(rows)));
        assertThat(parsed).hasSize(rows.size());
        List<Row> back = new ArrayList<>();
        for (List<byte[]> f : parsed) {
            assertThat(f).hasSize(4);
            String ns =
                    utf8(f.get(2)).equals("\\N") ? null : utf8(TextParsers.unquoteCsv(f.get(2)));
            back.add(
                    new Row(
                            Long.parseLong(utf8(f.get(0))),
                            utf8(TextParsers.unquoteCsv(f.get(1))),
                            ns,
                            readFloat(utf8(f.get(3)))));
        }
        assertThat(back).isEqualTo(rows);
    }
}
