package dev.sluice.pipeline.decode.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;

/** Random records written by Jackson's generator decode to the values written. */
class JsonRoundTripPropertyTest {

    @Property
    void randomRecordsRoundTrip(
            @ForAll long i64,
            @ForAll int i32,
            @ForAll double f64,
            @ForAll String text,
            @ForAll @BigRange(min = "-99999999999.9999999", max = "99999999999.9999999") @Scale(7)
                    BigDecimal dec,
            @ForAll @Size(max = 5) List<@Size(max = 3) List<String>> nested,
            @ForAll boolean quoteNumbers,
            @ForAll boolean reorder)
            throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartObject();
            if (reorder) {
                writeNested(g, nested);
            }
            if (quoteNumbers) {
                g.writeStringField("i64", Long.toString(i64));
            } else {
                g.writeNumberField("i64", i64);
            }
            g.writeNumberField("i32", i32);
            g.writeNumberField("f64", f64);
            g.writeStringField("s", text);
            g.writeNumberField("d", dec);
            if (!reorder) {
                writeNested(g, nested);
            }
            g.writeEndObject();
        }
        Rows r =
                DecodeFixture.decode(
                        "i64 Int64, i32 Int32, f64 Float64, s String, d Decimal(18, 7),"
                                + " n Array(Array(String))",
                        DecodeFixture.spec(Format.JSON),
                        w.toString());
        assertThat(r.errors).isEmpty();
        assertThat(r.value("i64", 0)).isEqualTo(i64);
        assertThat(r.value("i32", 0)).isEqualTo((long) i32);
        assertThat(r.value("f64", 0)).isEqualTo(f64);
        assertThat(r.value("s", 0)).isEqualTo(utf8(text));
        assertThat(((BigDecimal) r.value("d", 0)).compareTo(dec)).isZero();
        assertThat(r.value("n", 0))
                .isEqualTo(
                        nested.stream()
                                .map(l -> l.stream().map(JsonRoundTripPropertyTest::utf8).toList())
                                .toList());
    }

    private static void writeNested(JsonGenerator g, List<List<String>> nested) throws IOException {
        g.writeFieldName("n");
        g.writeStartArray();
        for (List<String> inner : nested) {
            g.writeStartArray();
            for (String x : inner) {
                g.writeString(x);
            }
            g.writeEndArray();
        }
        g.writeEndArray();
    }

    /** What a String becomes through UTF-8 (lone surrogates are kept as three bytes each). */
    private static String utf8(String s) {
        byte[] b = new byte[s.length() * 3];
        int n = dev.sluice.pipeline.decode.convert.Utf8.encode(s, b);
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }
}
