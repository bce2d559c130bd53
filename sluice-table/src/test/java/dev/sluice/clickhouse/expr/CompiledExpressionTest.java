package dev.sluice.clickhouse.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.types.TypeParser;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The evaluator without a server: result types by the server's rules and values the 18.16 server
 * gave for the same expressions (the broad comparison is {@code FunctionsServerIT}).
 */
class CompiledExpressionTest {
    private static final Block NO_ROWS = Block.of(List.of());

    private static Bindings bindings() {
        return new Bindings(ZoneId.of("UTC"));
    }

    private static CompiledExpression compile(String sql) throws UnsupportedExpressionException {
        return CompiledExpression.compile(sql, bindings());
    }

    /** The value of a constant expression, as the server prints it in TSV (strings unquoted). */
    private static String value(String sql) throws UnsupportedExpressionException {
        CompiledExpression e = compile(sql);
        ValueVector v = e.evaluate(NO_ROWS, null, 1, 1_600_000_000L);
        ValueType t = v.type();
        if (v.isNull(0)) {
            return "NULL";
        }
        return switch (t.kind()) {
            case STRING, FIXED_STRING ->
                    new String(
                            v.bytes(), v.start(0), v.end(0) - v.start(0), StandardCharsets.UTF_8);
            case FLOAT -> Double.toString(v.getDouble(0));
            case INT ->
                    t.signed() ? Long.toString(v.getLong(0)) : Long.toUnsignedString(v.getLong(0));
            default -> Long.toString(v.getLong(0));
        };
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // toTypeName(...) as 18.16 answered
                "toFloat32(1) + toFloat32(2)|Float64",
                "toUInt8(1) + toUInt8(1)|UInt16",
                "toUInt8(1) + toInt8(1)|Int16",
                "-toUInt8(1)|Int16",
                "-toInt8(1)|Int8",
                "toUInt64(1) + toInt64(1)|Int64",
                "intDiv(toInt64(1), toUInt16(3))|Int64",
                "toUInt8(5) % toInt8(3)|Int8",
                "toUInt32(1) * toUInt32(1)|UInt64",
                "toUInt64(1) - toUInt64(2)|Int64",
                "toUInt8(1) - toUInt8(2)|Int16",
                "1|UInt8",
                "-1|Int8",
                "300|UInt16",
                "1.5|Float64",
                "-129|Int16",
                "18446744073709551615|UInt64",
                "7 / 2|Float64",
                "intDiv(7, 2)|UInt8",
                "toDate('2020-01-01') + 1|Date",
                "length('abc')|UInt64",
                "toYYYYMM(now())|UInt32",
                "now()|DateTime",
                "toStartOfHour(now())|DateTime('UTC')",
                "toStartOfHour(toDateTime(0, 'Asia/Tokyo'))|DateTime('Asia/Tokyo')",
                "cityHash64(CAST(NULL, 'Nullable(String)'))|Nullable(UInt64)",
                "toString(CAST(NULL, 'Nullable(Int8)'))|Nullable(String)",
            })
    void resultTypes(String sql, String type) throws Exception {
        assertThat(compile(sql).type().typeName()).isEqualTo(type);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // SELECT ... as 18.16 answered
                "cityHash64('abc')|4220206313085259313",
                "cityHash64(toUInt64(5))|15228578409069794350",
                "intHash32(5)|2641603337",
                "cityHash64('a', 1)|11051256024482834174",
                "cityHash64(toInt8(-1))|8055013221972926055",
                "cityHash64(toInt32(-1))|9168733277332772950",
                "cityHash64(-1)|8055013221972926055",
                "cityHash64(toInt64(-1))|14600443904207254319",
                "cityHash64(1.5)|7287324520655339053",
                "cityHash64(toFloat32(1.5))|17641193269776743632",
                "cityHash64(toDate('2020-01-01'))|6817702824740635125",
                "intHash32(toInt8(-1))|3545659993",
                "toUInt64(1) - toUInt64(2)|-1",
                "toString(1 / 3)|0.3333333333333333",
                "toString(toFloat32(1 / 3))|0.33333334",
                "toString(5e-324)|5e-324",
                "toString(1e21)|1e21",
                "toString(1e20)|100000000000000000000",
                "toString(1e-7)|1e-7",
                "toString(0.000123)|0.000123",
                "toString(-0.)|-0",
                "toString(nan)|nan",
                "substring('abcdef', -8, 5)|abc",
                "substring('abcdef', 2)|bcdef",
                "upper('ä-z')|ä-Z",
                "lengthUTF8('日本')|2",
                // The server's date table at its edges: 1970 in Moscow starts before 0 (kept as
                // its low 32 bits); days past 2106-02-06 map to day 0; Kolkata is not whole-hour.
                "toUInt32(toStartOfDay(toDateTime(3600, 'Europe/Moscow')))|4294956496",
                "toUInt32(toStartOfHour(toDateTime(3600, 'Asia/Kolkata')))|7096",
                "toUInt16(toDate(toDateTime(3600, 'America/New_York')))|0",
                "toYYYYMM(toDate(49710))|210602",
                "toYYYYMM(toDate(49711))|197001",
                "toUInt16(toDate(toDateTime(4294944000)))|0",
                "toUInt16(toMonday(toDate(1)))|65533",
                "toUInt16(toStartOfYear(toDate(49710)))|0",
                "toUInt16(toStartOfQuarter(toDate(49710)))|49673",
                "toString(toDate(0))|0000-00-00",
                "toString(toDateTime(0))|0000-00-00 00:00:00",
                "toUInt32(today())|18518",
                "toUInt32(now())|1600000000",
            })
    void valuesTheServerComputed(String sql, String expected) throws Exception {
        assertThat(value(sql)).isEqualTo(expected);
    }

    @Test
    void readsColumnsForSelectedRows() throws Exception {
        Column s = ColumnFactory.create("s", "String");
        Column n = ColumnFactory.create("n", "Nullable(Int32)");
        for (int i = 0; i < 5; i++) {
            s.appendString("row" + i);
            if (i == 2) {
                n.appendNull();
            } else {
                n.appendLong(i * 10);
            }
        }
        Block block = Block.of(List.of(s, n));
        Bindings b =
                bindings()
                        .column("s", TypeParser.parse("String"))
                        .column("n", TypeParser.parse("Nullable(Int32)"));
        CompiledExpression e = CompiledExpression.compile("concat(upper(s), toString(n + 1))", b);
        assertThat(e.columns()).containsExactlyInAnyOrder("s", "n");
        assertThat(e.type().typeName()).isEqualTo("Nullable(String)");
        ValueVector v = e.evaluate(block, new int[] {4, 2, 0}, 3, 0);
        assertThat(text(v, 0)).isEqualTo("ROW441");
        assertThat(v.isNull(1)).isTrue();
        assertThat(text(v, 2)).isEqualTo("ROW01");
    }

    @Test
    void aliasesAreInlinedAndCastToTheirColumnsType() throws Exception {
        Bindings b =
                bindings()
                        .column("a", TypeParser.parse("UInt8"))
                        .alias("a", ExprParser.parse("300"))
                        .column("b", TypeParser.parse("String"))
                        .alias("b", ExprParser.parse("concat('x', toString(a))"));
        // a is UInt8: 300 wraps to 44, as the server's CAST does.
        assertThat(CompiledExpression.compile("upper(b)", b).evaluate(NO_ROWS, null, 1, 0))
                .satisfies(v -> assertThat(text(v, 0)).isEqualTo("X44"));
        assertThat(CompiledExpression.compile("upper(b)", b).columns()).isEmpty();
        Bindings cycle =
                bindings().alias("a", ExprParser.parse("b + 1")).alias("b", ExprParser.parse("a"));
        assertThatThrownBy(() -> CompiledExpression.compile("a", cycle))
                .isInstanceOf(UnsupportedExpressionException.class)
                .hasMessageContaining("itself");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "reverse('a')|function reverse",
                "rand()|function rand",
                "x|unknown column x",
                "intHash32(1.5)|intHash32 of Float64",
                "toStartOfHour(toDate('2020-01-01'))|refuses",
                "substring('a', 0, 1)|refused by the server",
                "intDiv(1, 0)|constant 0",
                "CAST(NULL, 'UInt8')|refuses",
                "toFloat32('1.5')|not supported",
                "CASE WHEN 1 THEN 2 END|cannot parse",
            })
    void unsupportedFormsNameTheReason(String sql, String reason) {
        assertThatThrownBy(() -> compile(sql))
                .isInstanceOf(UnsupportedExpressionException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void valuesOutsideWhatIsReproducedAreRefusedPerEvaluation() throws Exception {
        CompiledExpression e = compile("toUInt8('300')");
        assertThatThrownBy(() -> e.evaluate(NO_ROWS, null, 1, 0))
                .isInstanceOf(UnsupportedValueException.class);
        CompiledExpression f = compile("toInt8(1e10)");
        assertThatThrownBy(() -> f.evaluate(NO_ROWS, null, 1, 0))
                .isInstanceOf(UnsupportedValueException.class);
    }

    @Test
    void appendsResultsToColumnsOfTheirType() throws Exception {
        String[][] cases = {
            {"UInt64", "18446744073709551615"},
            {"Int8", "-2"},
            {"Float32", "0.5"},
            {"String", "'x'"},
            {"Date", "'2020-01-02'"},
            {"DateTime", "'2020-01-02 03:04:05'"},
            {"Nullable(String)", "NULL"},
            {"FixedString(3)", "'ab'"},
            {"Enum8('a' = 1, 'b' = 2)", "'b'"},
            {"LowCardinality(String)", "'lc'"},
        };
        for (String[] c : cases) {
            CompiledExpression e =
                    CompiledExpression.compile(
                            ExprParser.parse(c[1]), bindings(), TypeParser.parse(c[0]));
            ValueVector v = e.evaluate(NO_ROWS, null, 1, 0);
            Column column = ColumnFactory.create("c", c[0]);
            CompiledExpression.append(v, 0, column);
            assertThat(column.rows()).as(c[0]).isEqualTo(1);
            if (c[0].startsWith("FixedString")) {
                assertThat((byte[]) column.getObject(0)).containsExactly('a', 'b', 0);
                continue;
            }
            assertThat(String.valueOf(column.getObject(0)))
                    .as(c[0])
                    .isEqualTo(
                            switch (c[0]) {
                                case "UInt64" -> "18446744073709551615";
                                case "Float32" -> "0.5";
                                case "String" -> "x";
                                case "Date" -> "18263";
                                case "DateTime" -> "1577934245";
                                case "Nullable(String)" -> "null";
                                case "Enum8('a' = 1, 'b' = 2)" -> "b";
                                case "LowCardinality(String)" -> "lc";
                                default -> "-2";
                            });
        }
    }

    private static String text(ValueVector v, int i) {
        return new String(v.bytes(), v.start(i), v.end(i) - v.start(i), StandardCharsets.UTF_8);
    }
}
