package dev.sluice.clickhouse.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.expr.Expr.Call;
import dev.sluice.clickhouse.expr.Expr.Identifier;
import dev.sluice.clickhouse.expr.Expr.Literal;
import dev.sluice.clickhouse.expr.Expr.LiteralKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parser on the forms ClickHouse 18.16 prints in system.columns and system.tables. */
class ExprParserTest {

    private static String parsed(String text) {
        return ExprParser.parse(text).toString();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '#',
            quoteCharacter = '"',
            value = {
                // As 18.16 printed them for the defaults of a test table, and what they mean.
                "toDate(ts)#toDate(ts)",
                "concat('x', toString(a))#concat('x', toString(a))",
                "a / 3#divide(a, 3)",
                "CAST(a, 'String')#CAST(a, 'String')",
                "CAST(NULL, 'Nullable(String)')#CAST(NULL, 'Nullable(String)')",
                "CAST(-5, 'Int64')#CAST(-5, 'Int64')",
                "'it\\'s'#'it\\'s'",
                "(a = 1) AND (`weird name` != '')#and(equals(a, 1), notEquals(`weird name`, ''))",
                "a IN (1, 2)#in(a, tuple(1, 2))",
                "arrayMap(x -> (x + 1), arr)#arrayMap(lambda(tuple(x), plus(x, 1)), arr)",
                "toString((a * 2) + 1)#toString(plus(multiply(a, 2), 1))",
                "-a#negate(a)",
                "NOT a#not(a)",
                "[1, 2]#array(1, 2)",
                "(1, 'a')#tuple(1, 'a')",
                "if(a > 1, 'x', 'y')#if(greater(a, 1), 'x', 'y')",
                "(a < 3) OR (a > 7)#or(less(a, 3), greater(a, 7))",
                "s || 'z' || t#concat(s, 'z', t)",
                "CAST(x AS Nullable(String))#CAST(x, 'Nullable(String)')",
                "CAST(x AS DateTime('Asia/Kolkata'))#CAST(x, 'DateTime(\\'Asia/Kolkata\\')')",
                "x::UInt8#CAST(x, 'UInt8')",
                "a ? b : c#if(a, b, c)",
                "x BETWEEN 1 AND 5#and(greaterOrEquals(x, 1), lessOrEquals(x, 5))",
                "x IS NOT NULL#isNotNull(x)",
                "s NOT LIKE '%a'#notLike(s, '%a')",
                "arr[1]#arrayElement(arr, 1)",
                "t.1#tupleElement(t, 1)",
                "n.x + 1#plus(n.x, 1)",
                "dt + INTERVAL 1 DAY#plus(dt, toIntervalDay(1))",
                "1 - 2 - 3#minus(minus(1, 2), 3)",
                "1 + 2 * 3 % 4#plus(1, modulo(multiply(2, 3), 4))",
            })
    void parsesTheServersForms(String text, String expected) {
        assertThat(parsed(text)).isEqualTo(expected);
    }

    @Test
    void typesIntegerLiteralsByValueLikeTheServer() {
        assertThat(ExprParser.parse("255")).isEqualTo(Literal.ofUnsigned(255));
        assertThat(ExprParser.parse("18446744073709551615")).isEqualTo(Literal.ofUnsigned(-1));
        assertThat(ExprParser.parse("-9223372036854775808"))
                .isEqualTo(Literal.ofInteger(Long.MIN_VALUE));
        assertThat(((Literal) ExprParser.parse("-1")).kind()).isEqualTo(LiteralKind.SIGNED);
        // Beyond UInt64 it is a Float64, and so is a negative beyond Int64.
        assertThat(((Literal) ExprParser.parse("18446744073709551616")).kind())
                .isEqualTo(LiteralKind.FLOAT);
        assertThat(((Literal) ExprParser.parse("-9223372036854775809")).kind())
                .isEqualTo(LiteralKind.FLOAT);
        assertThat(ExprParser.parse("0x10")).isEqualTo(Literal.ofUnsigned(16));
    }

    @Test
    void readsFloatsIncludingInfAndNan() {
        assertThat(((Literal) ExprParser.parse("1e300")).number()).isEqualTo(1e300);
        assertThat(((Literal) ExprParser.parse("-0.5")).number()).isEqualTo(-0.5);
        assertThat(((Literal) ExprParser.parse("nan")).number()).isNaN();
        assertThat(((Literal) ExprParser.parse("-inf")).number())
                .isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void decodesStringEscapes() {
        assertThat(((Literal) ExprParser.parse("'a\\tb\\\\c\\'d''e\\x41\\n'")).text())
                .isEqualTo("a\tb\\c'd'eA\n");
        assertThat(((Literal) ExprParser.parse("'日本'")).text()).isEqualTo("日本");
    }

    @Test
    void quotedIdentifiers() {
        assertThat(ExprParser.parse("`weird name`")).isEqualTo(new Identifier("weird name"));
        assertThat(ExprParser.parse("`a\\`b`")).isEqualTo(new Identifier("a`b"));
        assertThat(ExprParser.parse("\"x y\"")).isEqualTo(new Identifier("x y"));
        assertThat(new Identifier("weird name").toString()).isEqualTo("`weird name`");
    }

    @Test
    void keysAsSystemTablesPrintsThem() {
        assertThat(ExprParser.parseList("intHash32(a), ts, cityHash64(b)"))
                .extracting(Expr::toString)
                .containsExactly("intHash32(a)", "ts", "cityHash64(b)");
        assertThat(ExprParser.parseList("")).isEmpty();
        assertThat(ExprParser.parseList("(a, toDate(dt))"))
                .containsExactly(
                        new Call(
                                "tuple",
                                List.of(
                                        new Identifier("a"),
                                        new Call("toDate", List.of(new Identifier("dt"))))));
    }

    @Test
    void engineClauses() {
        String full =
                "MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (tenant, ts) SAMPLE BY intHash32(a)"
                        + " SETTINGS index_granularity = 8192";
        assertThat(ExprParser.clause(full, "ORDER", "BY").toString())
                .isEqualTo("tuple(tenant, ts)");
        assertThat(ExprParser.clause(full, "PARTITION", "BY").toString()).isEqualTo("toYYYYMM(ts)");
        assertThat(ExprParser.clause("Memory", "ORDER", "BY")).isNull();
        assertThat(ExprParser.engineArguments("MergeTree(d, (a, b), 8192)"))
                .extracting(Expr::toString)
                .containsExactly("d", "tuple(a, b)", "8192");
        assertThat(ExprParser.engineArguments("MergeTree")).isEmpty();
    }

    @Test
    void errorsNameThePosition() {
        assertThatThrownBy(() -> ExprParser.parse("f(a"))
                .isInstanceOf(ExprParseException.class)
                .hasMessageContaining("expected ')'");
        assertThatThrownBy(() -> ExprParser.parse("CASE WHEN a THEN 1 END"))
                .isInstanceOf(ExprParseException.class)
                .hasMessageContaining("CASE");
        assertThatThrownBy(() -> ExprParser.parse("a b"))
                .isInstanceOf(ExprParseException.class)
                .hasMessageContaining("at 2");
        assertThatThrownBy(() -> ExprParser.parse("'\\xFF'"))
                .isInstanceOf(ExprParseException.class)
                .hasMessageContaining("UTF-8");
    }
}
