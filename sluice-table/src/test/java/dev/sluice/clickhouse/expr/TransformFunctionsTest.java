package dev.sluice.clickhouse.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.types.TypeParser;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The functions pipeline transforms use, without a server: {@code raw()}, result types and values
 * 18.16 gave (the broad comparison is {@code TransformFunctionsServerIT}), and what is refused.
 */
class TransformFunctionsTest {

    /** A block with columns {@code u UInt8, n Nullable(UInt8), s String} of the given rows. */
    private static Block block(Object[]... rows) {
        List<Column> cols =
                List.of(
                        ColumnFactory.create("u", "UInt8"),
                        ColumnFactory.create("n", "Nullable(UInt8)"),
                        ColumnFactory.create("s", "String"));
        Block b = new Block(cols, List.of("UInt8", "Nullable(UInt8)", "String"));
        for (Object[] r : rows) {
            b.column(0).appendLong((Integer) r[0]);
            if (r[1] == null) {
                b.column(1).appendNull();
            } else {
                b.column(1).appendLong((Integer) r[1]);
            }
            b.column(2).appendString((String) r[2]);
        }
        return b;
    }

    private static Bindings bindings() {
        return new Bindings(ZoneId.of("UTC"))
                .column("u", TypeParser.parse("UInt8"))
                .column("n", TypeParser.parse("Nullable(UInt8)"))
                .column("s", TypeParser.parse("String"))
                .rawRecord();
    }

    private static List<String> values(String sql, Block block, RawRecords raw)
            throws UnsupportedExpressionException {
        CompiledExpression e = CompiledExpression.compile(sql, bindings());
        ValueVector v = e.evaluate(block, null, block.rows(), 0, raw);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < block.rows(); i++) {
            out.add(ServerComparison.render(v, i));
        }
        return out;
    }

    @Test
    void logicPassesUInt8ValuesThroughAsTheServerDoes() throws Exception {
        Block b =
                block(new Object[] {2, 3, ""}, new Object[] {0, null, ""}, new Object[] {5, 0, ""});
        // and: the first zero, else the last argument's value; or: the first value not zero.
        assertThat(values("u AND n", b, null)).containsExactly("3", "NULL", "0");
        assertThat(values("u OR n", b, null)).containsExactly("2", "0", "5");
        assertThat(values("u AND 1", b, null)).containsExactly("2", "0", "5");
        assertThat(values("NOT u", b, null)).containsExactly("0", "1", "0");
        assertThat(values("xor(u, 1)", b, null)).containsExactly("0", "1", "0");
        assertThat(values("u AND 0", b, null)).containsExactly("0", "0", "0");
        assertThat(values("(u > 1) AND (u < 4)", b, null)).containsExactly("1", "0", "0");
    }

    @Test
    void rawReadsTheRecordsBehindTheRowsWithoutCopying() throws Exception {
        byte[] data = "{\"a\":1,\"b\":\"x\"}|{\"a\":-7}|nothing".getBytes(StandardCharsets.UTF_8);
        int[] starts = {0, 16, 25};
        int[] ends = {15, 24, 32};
        RawRecords raw =
                new RawRecords() {
                    @Override
                    public byte[] bytes() {
                        return data;
                    }

                    @Override
                    public int start(int row) {
                        return starts[row];
                    }

                    @Override
                    public int end(int row) {
                        return ends[row];
                    }
                };
        Block b = block(new Object[] {0, 0, ""}, new Object[] {0, 0, ""}, new Object[] {0, 0, ""});
        assertThat(values("raw()", b, raw))
                .containsExactly("'{\"a\":1,\"b\":\"x\"}'", "'{\"a\":-7}'", "'nothing'");
        assertThat(values("visitParamExtractInt(raw(), 'a')", b, raw))
                .containsExactly("1", "-7/-7", "0"); // the render shows a negative both ways
        assertThat(values("visitParamExtractString(raw(), 'b')", b, raw))
                .containsExactly("'x'", "''", "''");
        assertThat(values("visitParamHas(raw(), 'a') AND length(raw()) > 10", b, raw))
                .containsExactly("1", "0", "0");
        CompiledExpression e = CompiledExpression.compile("raw()", bindings());
        assertThat(e.usesRaw()).isTrue();
        assertThatThrownBy(() -> e.evaluate(b, null, 3, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pass the rows' records");
        assertThatThrownBy(
                        () -> CompiledExpression.compile("raw()", new Bindings(ZoneId.of("UTC"))))
                .isInstanceOf(UnsupportedExpressionException.class)
                .hasMessageContaining("raw() is not available here");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // toTypeName(...) as 18.16 answered over columns
                "u = 1|UInt8",
                "n = 1|Nullable(UInt8)",
                "NULL = u|Nullable(Nothing)",
                "u AND n|Nullable(UInt8)",
                "u OR n|UInt8",
                "u IN (1, 2)|UInt8",
                "n NOT IN (1, NULL)|UInt8",
                "isNull(n)|UInt8",
                "if(u, 1, -1)|Int16",
                "if(u, 1, 2.5)|Float64",
                "if(n, 1, 2)|Nullable(UInt8)",
                "if(u, NULL, 1)|Nullable(UInt8)",
                "multiIf(u, 1, n, 2, 3)|Nullable(UInt8)",
                "coalesce(n, 2)|UInt8",
                "coalesce(n, -1)|Int16",
                "coalesce(n, n)|Nullable(UInt8)",
                "coalesce(NULL, NULL)|Nullable(Nothing)",
                "ifNull(n, 300)|UInt16",
                "visitParamExtractUInt(s, 'a')|UInt64",
                "visitParamExtractInt(s, 'a')|Int64",
                "visitParamExtractFloat(s, 'a')|Float64",
                "visitParamExtractBool(s, 'a')|UInt8",
                "visitParamExtractRaw(s, 'a')|String",
                "visitParamExtractString(s, 'a')|String",
                "visitParamHas(s, 'a')|UInt8",
                "toFloat64(s)|Float64",
                "NOT NOT u|UInt8",
            })
    void typesAreTheServers(String sql, String type) throws Exception {
        assertThat(CompiledExpression.compile(sql, bindings()).type().typeName()).isEqualTo(type);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "toFloat64('0.3')|0.3",
                "toFloat64('-1.5')|-1.5",
                "toFloat64('-0')|-0.0",
                "toFloat64('123456789012345678')|1.2345678901234568E17",
                "toFloat64('0.000000000000000001')|1.0E-18",
                "toFloat64('inf')|Infinity",
                "toFloat64('-Infinity')|-Infinity",
            })
    void textReadsAsTheServersFloat(String sql, String value) throws Exception {
        Block empty = Block.of(List.of());
        ValueVector v = CompiledExpression.compile(sql, bindings()).evaluate(empty, null, 1, 0);
        assertThat(Double.toString(v.getDouble(0))).isEqualTo(value);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "toFloat64('1e5')|an exponent",
                "toFloat64('1234567890123456789')|more than 18 digits",
                "toFloat64('.5')|a point without digits",
                "toFloat64('1.5x')|cannot parse '1.5x' as Float64",
                "visitParamExtractRaw('{\"a\":5', 'a')|18.16 crashes",
                "visitParamExtractString('{\"a\":\"\\\\ud800x\"}', 'a')|unpaired surrogate",
                "visitParamExtractString('{\"a\":\"\\\\u12\"}', 'a')|four hex digits",
            })
    void valuesTheServerDoesNotDefineAreRefused(String sql, String reason) throws Exception {
        Block empty = Block.of(List.of());
        CompiledExpression e = CompiledExpression.compile(sql, bindings());
        assertThatThrownBy(() -> e.evaluate(empty, null, 1, 0))
                .isInstanceOf(UnsupportedValueException.class)
                .hasMessageContaining(reason);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "toDate('2020-01-01') = toDateTime(0)|compares a Date's day number",
                "toDate('2020-01-01') = 18262|a Date compares only",
                "s = 1|a string compares only with a string",
                "toFixedString(s, 3) = 'abc'|FixedString",
                "s IN ('a', 1)|is not a String",
                "u IN [1, 2]|takes a list of constants",
                "if(toInt32(u), 1, 2)|not a UInt8",
                "if(u, toUInt64(1), toInt64(1))|no signed integer holds",
                "if(u, s, 1)|no common type",
                "if(u, toDate('2020-01-01'), now())|Date and DateTime",
                "multiIf(u, 1)|odd number",
                "u AND NULL|always NULL",
                "s AND 1|takes numbers",
                "visitParamHas(u, 'a')|reads a String",
                "visitParamHas(s, s)|constant string",
                "toDateTime(0, 'Asia/Kolkata') = '2020-01-01 00:00:00'|server's time zone",
                "toDate('2020-01-01') = '2020-1-1'|as 'YYYY-MM-DD'",
            })
    void formsTheServerRefusesOrComputesSurprisinglyAreRefused(String sql, String reason) {
        assertThatThrownBy(() -> CompiledExpression.compile(sql, bindings()))
                .isInstanceOf(UnsupportedExpressionException.class)
                .hasMessageContaining(reason);
    }
}
