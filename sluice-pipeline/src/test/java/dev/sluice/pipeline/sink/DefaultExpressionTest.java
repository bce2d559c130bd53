package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.sink.DefaultExpression.Kind;
import org.junit.jupiter.api.Test;

class DefaultExpressionTest {

    private static void is(String text, Kind kind, String literal) {
        DefaultExpression e = DefaultExpression.parse(text);
        assertThat(e.kind()).as(text).isEqualTo(kind);
        assertThat(e.literal()).as(text).isEqualTo(literal);
    }

    @Test
    void literalsAsEighteenSixteenPrintsThem() {
        is("5", Kind.NUMBER, "5");
        is("-1.5", Kind.NUMBER, "-1.5");
        is("1e3", Kind.NUMBER, "1e3");
        is("'x\\'y'", Kind.STRING, "x'y");
        is("'a''b\\n'", Kind.STRING, "a'b\n");
        is("CAST(7, 'Int32')", Kind.NUMBER, "7");
        is("CAST(NULL, 'Nullable(String)')", Kind.NULL, null);
        is("toUInt64(3)", Kind.NUMBER, "3");
        is("CAST('2020-01-01 00:00:00', 'DateTime')", Kind.STRING, "2020-01-01 00:00:00");
        is("CAST('b', 'Enum8(\\'a\\' = 1, \\'b\\' = 2)')", Kind.STRING, "b");
        is("CAST(1.25 AS Decimal(10, 2))", Kind.NUMBER, "1.25");
        is("toDecimal32(1.5, 2)", Kind.NUMBER, "1.5");
    }

    @Test
    void theClockFunctions() {
        is("now()", Kind.NOW, null);
        is("today()", Kind.TODAY, null);
        is("toDate(now())", Kind.NOW, null);
    }

    @Test
    void anythingElseIsLeftToTheServer() {
        for (String e :
                new String[] {
                    "concat(b, 'z')",
                    "rand()",
                    "a + 1",
                    "toStartOfMonth(now())",
                    "5 + 3",
                    "x",
                    "'unterminated",
                    "CAST(a, 'UInt8')"
                }) {
            assertThat(DefaultExpression.parse(e).kind()).as(e).isEqualTo(Kind.UNSUPPORTED);
        }
    }
}
