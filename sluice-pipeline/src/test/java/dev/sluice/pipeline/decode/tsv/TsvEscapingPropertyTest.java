package dev.sluice.pipeline.decode.tsv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

class TsvEscapingPropertyTest {

    @Property
    void unescapeUndoesEscape(@ForAll byte[] raw) {
        byte[] escaped = new byte[raw.length * 2];
        int n = escape(raw, 0, raw.length, escaped);
        assertThat(Arrays.copyOf(escaped, n)).doesNotContain((byte) '\t', (byte) '\n');
        byte[] back = new byte[n];
        int m = TsvEscaping.unescape(escaped, 0, n, back);
        assertThat(Arrays.copyOf(back, m)).isEqualTo(raw);
    }

    @Property
    void anyStringsSurviveALineOfFields(@ForAll @Size(max = 4) List<String> values) {
        StringBuilder columns = new StringBuilder();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i <= values.size(); i++) {
            String v = i < values.size() ? values.get(i) : "last";
            columns.append(i == 0 ? "" : ", ").append("c").append(i).append(" String");
            byte[] raw = v.getBytes(StandardCharsets.UTF_8);
            byte[] esc = new byte[raw.length * 2];
            int n = escape(raw, 0, raw.length, esc);
            line.append(i == 0 ? "" : "\t").append(new String(esc, 0, n, StandardCharsets.UTF_8));
        }
        var table = DecodeFixture.table(columns.toString());
        var spec = DecodeFixture.spec(Format.TSV);
        TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), table);
        Decoder d = DecoderFactory.create(spec, target);
        Rows r = new Rows(target).decode(d, DecodeFixture.batch(line.toString()));
        assertThat(r.errors).isEmpty();
        for (int i = 0; i < values.size(); i++) {
            String expected =
                    new String(
                            values.get(i).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            assertThat(r.value("c" + i, 0)).isEqualTo(expected);
        }
    }

    /** Escapes {@code src[from, to)} for a TSV field, as ClickHouse writes it. */
    static int escape(byte[] src, int from, int to, byte[] dst) {
        int n = 0;
        for (int p = from; p < to; p++) {
            byte c = src[p];
            byte e =
                    switch (c) {
                        case '\t' -> 't';
                        case '\n' -> 'n';
                        case '\\' -> '\\';
                        case 0 -> '0';
                        case '\b' -> 'b';
                        case '\f' -> 'f';
                        case '\r' -> 'r';
                        default -> 0;
                    };
            if (e == 0) {
                dst[n++] = c;
            } else {
                dst[n++] = '\\';
                dst[n++] = e;
            }
        }
        return n;
    }
}
