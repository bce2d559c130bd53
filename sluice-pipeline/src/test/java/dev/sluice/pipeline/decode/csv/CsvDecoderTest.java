package dev.sluice.pipeline.decode.csv;

import static dev.sluice.pipeline.decode.DecodeFixture.decode;
import static dev.sluice.pipeline.decode.DecodeFixture.spec;
import static dev.sluice.pipeline.decode.DecodeFixture.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvDecoderTest {

    @Test
    void quotedFieldsHoldDelimitersQuotesAndNewlines() {
        Rows r =
                decode(
                        "a String, b String, c UInt8",
                        spec(Format.CSV),
                        "\"x,y\",\"say \"\"hi\"\"\",1",
                        "\"multi\nline\r\n\",plain,2",
                        "\"\",'single',3",
                        "  padded  ,  \"quoted\"  ,4",
                        "a\"b,\"\"\"\",5\r");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo("x,y");
        assertThat(r.value("b", 0)).isEqualTo("say \"hi\"");
        assertThat(r.value("a", 1)).isEqualTo("multi\nline\r\n");
        assertThat(r.value("a", 2)).isEqualTo("");
        assertThat(r.value("b", 2)).as("single quotes are text (RFC 4180)").isEqualTo("'single'");
        assertThat(r.value("a", 3)).as("spaces around fields are trimmed").isEqualTo("padded");
        assertThat(r.value("b", 3)).isEqualTo("quoted");
        assertThat(r.value("a", 4)).as("a quote inside an unquoted field").isEqualTo("a\"b");
        assertThat(r.value("b", 4)).isEqualTo("\"");
        assertThat(r.value("c", 4)).as("a trailing CR is a line end").isEqualTo(5L);
    }

    @Test
    void emptyFieldsAreDefaultsAndBackslashNIsNull() {
        Rows r =
                decode(
                        "i Int32, n Nullable(Int32), d Date, s String, q Nullable(String)",
                        spec(Format.CSV),
                        ",,,,",
                        "\\N,\\N,2024-01-01,\\N,\\N",
                        "\"\",1,\"2024-01-02\",\"\\N\",\"\"");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("i", 0)).isEqualTo(0L);
        assertThat(r.value("n", 0)).as("the default of Nullable is NULL").isNull();
        assertThat(r.value("d", 0)).isEqualTo(0L);
        assertThat(r.value("q", 0)).isNull();
        assertThat(r.isAbsent("i", 0)).isFalse();
        assertThat(r.value("n", 1)).isNull();
        assertThat(r.value("i", 1)).isEqualTo(0L);
        assertThat(r.isAbsent("i", 1)).as("NULL in a non-Nullable column").isTrue();
        assertThat(r.value("s", 1)).isEqualTo("");
        assertThat(r.value("i", 2)).as("quoted empty number is 0").isEqualTo(0L);
        assertThat(r.value("s", 2)).as("a quoted \\N is text").isEqualTo("\\N");
        assertThat(r.value("q", 2)).isEqualTo("");
    }

    @Test
    void arraysAndNumbersAsClickHouseText() {
        Rows r =
                decode(
                        "a Array(String), t Tuple(UInt8, String), f Float64, dt DateTime",
                        spec(Format.CSV),
                        "\"['a','b,c']\",\"(1,'x')\",-1.5e3,2024-01-01 00:00:00");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(List.of("a", "b,c"));
        assertThat(r.value("t", 0)).isEqualTo(List.of(1L, "x"));
        assertThat(r.value("f", 0)).isEqualTo(-1500.0);
        assertThat(r.value("dt", 0)).isEqualTo(1704067200L);
    }

    @Test
    void malformedRecordsNameTheProblem() {
        Rows r =
                decode(
                        "a String, b UInt8",
                        spec(Format.CSV),
                        "\"open,1",
                        "\"x\"y,1",
                        "x,1,2",
                        "x",
                        "x,256",
                        "ok,1");
        assertThat(r.errors)
                .containsExactly(
                        "field 1: a quoted field is not closed",
                        "field 1: unexpected text after the closing quote (a quote inside a quoted"
                                + " field is written twice)",
                        "expected 2 CSV fields, found more",
                        "expected 2 CSV fields, found 1",
                        "column b (UInt8): value 256 is out of range");
        assertThat(r.block.rows()).isEqualTo(1);
    }

    @Test
    void headerAndDelimiter() {
        DecodeSpec semi = new DecodeSpec(Format.CSV, List.of(), true, Map.of(), false, ';');
        Rows r =
                decode(
                        table("a UInt8, b String, c Array(UInt8)"),
                        semi,
                        List.of(),
                        "\"b\";a",
                        "x;1",
                        "\"y;z\";2");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 1)).isEqualTo(2L);
        assertThat(r.value("b", 1)).isEqualTo("y;z");
        assertThat(r.isAbsent("c", 0)).isTrue();
        assertThat(r.value("c", 0)).isEqualTo(List.of());
        DecodeSpec tabs = new DecodeSpec(Format.CSV, List.of(), false, Map.of(), false, '\t');
        Rows t = decode(table("a String, b String"), tabs, List.of(), " x \t\"y\"");
        assertThat(t.value("a", 0)).isEqualTo("x");
        assertThat(t.value("b", 0)).isEqualTo("y");
        assertThatThrownBy(
                        () ->
                                DecoderFactory.create(
                                        new DecodeSpec(
                                                Format.CSV, List.of(), false, Map.of(), false, '"'),
                                        DecoderFactory.targetColumns(
                                                spec(Format.CSV), List.of(), table("a UInt8"))))
                .hasMessageContaining("delimiter");
    }

    @Test
    void aByteOrderMarkBeforeTheHeaderIsSkipped() {
        var header = spec(Format.CSV, List.of(), true, Map.of(), false);
        Rows r = decode(table("a UInt8"), header, List.of(), "\uFEFFa", "1");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(1L);
    }

    @Test
    void renamedAndDroppedHeaderFields() {
        var header = spec(Format.CSV, List.of(), true, Map.of(), false);
        Rows r =
                decode(
                        table("user_id UInt64, name String"),
                        header,
                        List.of(
                                new dev.sluice.pipeline.spec.PipelineSpec.TransformSpec(
                                        "rename", Map.of("from", "uid", "to", "user_id")),
                                new dev.sluice.pipeline.spec.PipelineSpec.TransformSpec(
                                        "drop", Map.of("field", "junk"))),
                        "junk,uid,name",
                        "zz,7,ann");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("user_id", 0)).isEqualTo(7L);
        assertThat(r.value("name", 0)).isEqualTo("ann");
        assertThat(Arrays.asList(r.block.column(0).name(), r.block.column(1).name()))
                .containsExactly("user_id", "name");
    }
}
