package dev.sluice.pipeline.decode.csv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** Any text, quoted the RFC 4180 way, comes back unchanged. */
class CsvRoundTripPropertyTest {

    @Property
    void quotedValuesRoundTrip(@ForAll @Size(min = 1, max = 4) List<String> values) {
        StringBuilder columns = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            columns.append(i == 0 ? "" : ", ").append("c").append(i).append(" String");
            line.append(i == 0 ? "" : ",")
                    .append('"')
                    .append(values.get(i).replace("\"", "\"\""))
                    .append('"');
        }
        Rows r =
                DecodeFixture.decode(
                        columns.toString(), DecodeFixture.spec(Format.CSV), line.toString());
        assertThat(r.errors).isEmpty();
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            // Invalid UTF-16 (lone surrogates) cannot survive the trip to UTF-8 bytes.
            String expected =
                    new String(
                            v.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            java.nio.charset.StandardCharsets.UTF_8);
            assertThat(r.value("c" + i, 0)).isEqualTo(expected);
        }
    }
}
