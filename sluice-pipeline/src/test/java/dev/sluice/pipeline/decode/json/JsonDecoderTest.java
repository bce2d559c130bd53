package dev.sluice.pipeline.decode.json;

import static dev.sluice.pipeline.decode.DecodeFixture.decode;
import static dev.sluice.pipeline.decode.DecodeFixture.spec;
import static dev.sluice.pipeline.decode.DecodeFixture.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonDecoderTest {

    private static DecodeSpec fields(Map<String, String> fields, boolean ignoreUnknown) {
        return spec(Format.JSON, List.of(), false, fields, ignoreUnknown);
    }

    @Test
    void scalarsConvertToTheColumnTypes() {
        Rows r =
                decode(
                        "i Int64, u UInt64, f Float64, d Decimal(20, 10), b UInt8, s String,"
                                + " dt DateTime, dt64 DateTime64(3), day Date, e Enum8('a' = 1, 'b' = 2),"
                                + " id UUID, fs FixedString(2)",
                        spec(Format.JSON),
                        "{\"i\":-9223372036854775808,\"u\":\"18446744073709551615\",\"f\":1e-3,"
                                + "\"d\":1234567890.0123456789,\"b\":true,\"s\":\"é\\u00e9\\ud83e\\udd80\","
                                + "\"dt\":\"2024-01-01T00:00:00Z\",\"dt64\":1700000000123,\"day\":19723,"
                                + "\"e\":\"b\",\"id\":\"550e8400-e29b-41d4-a716-446655440000\",\"fs\":\"ab\"}",
                        "{\"i\":\"42\",\"u\":0,\"f\":NaN,\"d\":\"-1\",\"b\":0,\"s\":12.50,"
                                + "\"dt\":1700000000,\"dt64\":\"2024-01-01 00:00:00.5\",\"day\":\"2024-01-01\","
                                + "\"e\":1,\"id\":\"00000000-0000-0000-0000-000000000000\",\"fs\":\"\"}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("i", 0)).isEqualTo(Long.MIN_VALUE);
        assertThat(r.value("u", 0)).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(r.value("f", 0)).isEqualTo(0.001);
        assertThat(r.value("d", 0)).isEqualTo(new BigDecimal("1234567890.0123456789"));
        assertThat(r.value("b", 0)).isEqualTo(1L);
        assertThat(r.value("s", 0)).isEqualTo("éé🦀");
        assertThat(r.value("dt", 0)).isEqualTo(1704067200L);
        assertThat(r.value("dt64", 0)).isEqualTo(1700000000123L);
        assertThat(r.value("day", 0)).isEqualTo(19723L);
        assertThat(r.value("e", 0)).isEqualTo("b");
        assertThat(r.value("i", 1)).isEqualTo(42L);
        assertThat((Double) r.value("f", 1)).isNaN();
        assertThat(r.value("s", 1)).as("a number keeps its text").isEqualTo("12.50");
        assertThat(r.value("dt64", 1)).isEqualTo(1704067200500L);
        assertThat(r.value("e", 1)).isEqualTo("a");
    }

    @Test
    void nestedFieldsByPointerOrDottedPathAndTheWholeRecord() {
        String record =
                "{\"meta\":{\"ts\":1700000000,\"tags\":[\"x\",\"y\"],\"a/b\":3},"
                        + "\"user\":{\"id\":\"7\",\"extra\":{\"deep\":true}},\"kind\":\"click\"}";
        Rows r =
                decode(
                        table(
                                "ts DateTime, first_tag String, slash UInt8, user_id UInt64,"
                                        + " user String, kind String, raw String"),
                        fields(
                                Map.of(
                                        "ts", "/meta/ts",
                                        "first_tag", "meta.tags.0",
                                        "slash", "/meta/a~1b",
                                        "user_id", "user.id",
                                        "raw", "$"),
                                false),
                        List.of(),
                        record);
        assertThat(r.errors).isEmpty();
        assertThat(r.value("ts", 0)).isEqualTo(1700000000L);
        assertThat(r.value("first_tag", 0)).isEqualTo("x");
        assertThat(r.value("slash", 0)).isEqualTo(3L);
        assertThat(r.value("user_id", 0)).isEqualTo(7L);
        assertThat(r.value("user", 0))
                .as("an object read whole while a column reads inside it")
                .isEqualTo("{\"id\":\"7\",\"extra\":{\"deep\":true}}");
        assertThat(r.value("raw", 0)).isEqualTo(record);
        assertThat(r.value("kind", 0)).isEqualTo("click");
    }

    @Test
    void objectsAndArraysBecomeTheirJsonTextInStringColumns() {
        Rows r =
                decode(
                        "payload String, list String, n Nullable(String)",
                        spec(Format.JSON),
                        "{ \"payload\" : { \"a\" : [1, {\"b\": null}] } , \"list\":[ ],\"n\":null}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("payload", 0)).isEqualTo("{ \"a\" : [1, {\"b\": null}] }");
        assertThat(r.value("list", 0)).isEqualTo("[ ]");
        assertThat(r.value("n", 0)).isNull();
    }

    @Test
    void arraysTuplesAndMaps() {
        Rows r =
                decode(
                        "a Array(Nullable(Int32)), aa Array(Array(String)), t Tuple(UInt8, String),"
                                + " nt Tuple(x UInt8, y String), m Map(String, Array(UInt8)),"
                                + " lc LowCardinality(Nullable(String))",
                        spec(Format.JSON),
                        "{\"a\":[1,null,\"3\"],\"aa\":[[],[\"x\"]],\"t\":[1,\"a\"],\"nt\":{\"y\":\"q\"},"
                                + "\"m\":{\"k\":[1,2],\"l\":[]},\"lc\":null}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(Arrays.asList(1L, null, 3L));
        assertThat(r.value("aa", 0)).isEqualTo(List.of(List.of(), List.of("x")));
        assertThat(r.value("t", 0)).isEqualTo(List.of(1L, "a"));
        assertThat(r.value("nt", 0)).isEqualTo(List.of(0L, "q"));
        assertThat(r.value("m", 0)).isEqualTo(Map.of("k", List.of(1L, 2L), "l", List.of()));
        assertThat(r.value("lc", 0)).isNull();
    }

    @Test
    void missingAndNullFieldsAreDefaultsReportedAbsent() {
        Rows r =
                decode(
                        "a UInt8, b String, c Nullable(UInt8)",
                        spec(Format.JSON),
                        "{\"b\":null}",
                        "{}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(0L);
        assertThat(r.isAbsent("a", 0)).isTrue();
        assertThat(r.isAbsent("b", 0)).as("null in a non-Nullable column").isTrue();
        assertThat(r.isAbsent("c", 0)).isTrue();
        assertThat(r.value("c", 0)).isNull();
        assertThat(r.isAbsent("b", 1)).isTrue();
    }

    @Test
    void unknownKeysAreErrorsUnlessIgnoredDroppedOrKeptWhole() {
        Rows strict = decode("a UInt8", spec(Format.JSON), "{\"a\":1,\"zz\":{\"deep\":[1]}}");
        assertThat(strict.errors)
                .containsExactly(
                        "field zz: table db.t has no column zz (ignore_unknown skips such fields)");
        Rows lenient =
                decode(
                        table("a UInt8"),
                        fields(Map.of(), true),
                        List.of(),
                        "{\"zz\":{\"x\":[1]},\"a\":1}");
        assertThat(lenient.errors).isEmpty();
        assertThat(lenient.value("a", 0)).isEqualTo(1L);
        Rows dropped =
                decode(
                        table("a UInt8"),
                        spec(Format.JSON),
                        List.of(new TransformSpec("drop", Map.of("fields", List.of("zz")))),
                        "{\"zz\":1,\"a\":1}");
        assertThat(dropped.errors).isEmpty();
        Rows whole =
                decode(
                        table("a UInt8, raw String"),
                        fields(Map.of("raw", "$"), false),
                        List.of(),
                        "{\"zz\":1,\"a\":1}");
        assertThat(whole.errors).isEmpty();
        Rows nested =
                decode(
                        table("u UInt8"),
                        fields(Map.of("u", "/x/u"), false),
                        List.of(),
                        "{\"x\":{\"u\":1,\"other\":2}}");
        assertThat(nested.errors).as("unknown keys under a mapped path are fine").isEmpty();
        Rows renamedAway =
                decode(
                        table("u UInt8"),
                        fields(Map.of("u", "/x/u"), false),
                        List.of(),
                        "{\"u\":1}");
        assertThat(renamedAway.errors).singleElement().asString().contains("column u reads /x/u");
        Rows materialized = decode("a UInt8, m UInt8 MATERIALIZED", spec(Format.JSON), "{\"m\":1}");
        assertThat(materialized.errors).singleElement().asString().contains("MATERIALIZED");
    }

    @Test
    void renamesMapKeysToColumns() {
        Rows r =
                decode(
                        table("user_id UInt64, name String"),
                        spec(Format.JSON),
                        List.of(
                                new TransformSpec(
                                        "rename",
                                        Map.of(
                                                "fields",
                                                Map.of("uid", "user_id", "/p/n", "name")))),
                        "{\"uid\":5,\"p\":{\"n\":\"ann\"}}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("user_id", 0)).isEqualTo(5L);
        assertThat(r.value("name", 0)).isEqualTo("ann");
    }

    @Test
    void badRecordsAreRejectedWithTheirReasonAndTheParserRecovers() {
        Rows r =
                decode(
                        "a UInt8, s String, t Tuple(UInt8, UInt8), ar Array(UInt8)",
                        spec(Format.JSON),
                        "{\"a\":1,}",
                        "{\"a\":300}",
                        "{\"a\":1",
                        "{\"a\":1} {\"a\":2}",
                        "[1]",
                        "   ",
                        "{\"a\":1,\"a\":2}",
                        "{\"a\":\"x\"}",
                        "{\"a\":1.5}",
                        "{\"a\":[1]}",
                        "{\"t\":[1]}",
                        "{\"t\":[1,2,3]}",
                        "{\"ar\":[1,\"z\"]}",
                        "{\"ar\":{\"a\":1}}",
                        "{\"a\":7,\"s\":\"fine\"}");
        assertThat(r.errors)
                .containsExactly(
                        "invalid JSON at byte 7: Unexpected character ('}' (code 125)): was expecting"
                                + " double-quote to start field name",
                        "column a (UInt8): value 300 is out of range",
                        "invalid JSON at byte 6: the record ends inside a value",
                        "invalid JSON at byte 7: unexpected data after the end of the object",
                        "a record must be a JSON object",
                        "an empty record is not a JSON object",
                        "column a (UInt8): the record has its field twice (a duplicate key)",
                        "column a (UInt8): 'x' is not an integer",
                        "column a (UInt8): '1.5' is not an integer",
                        "column a (UInt8): cannot store a JSON array in this type",
                        "column t (Tuple(UInt8, UInt8)): the array has 1 elements, the tuple 2",
                        "column t (Tuple(UInt8, UInt8)): the array has more elements than the tuple's 2",
                        "column ar (Array(UInt8)): 'z' is not an integer",
                        "column ar (Array(UInt8)): cannot store a JSON object in this type");
        assertThat(r.block.rows()).isEqualTo(1);
        assertThat(r.value("a", 0)).isEqualTo(7L);
        assertThat(r.value("ar", 0)).isEqualTo(List.of());
    }

    @Test
    void invalidUtf8IsRejectedWithItsOffset() throws Exception {
        TargetColumns target =
                DecoderFactory.targetColumns(spec(Format.JSON), List.of(), table("s String"));
        Decoder d = DecoderFactory.create(spec(Format.JSON), target);
        byte[] bad = "{\"s\":\"ab\u00ff\"}".getBytes(StandardCharsets.ISO_8859_1);
        byte[] good = "{\"s\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
        Rows r = new Rows(target).decode(d, DecodeFixture.batch(bad, good));
        assertThat(r.errors)
                .singleElement()
                .asString()
                .startsWith("invalid JSON at byte 8: Invalid UTF-8");
        assertThat(r.value("s", 0)).isEqualTo("ok");
    }

    @Test
    void manyRecordsOnOneParserAndAcrossParserReplacement() throws Exception {
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec(Format.JSON), List.of(), table("n UInt32, s String"));
        Decoder d = DecoderFactory.create(spec(Format.JSON), target);
        int count = JacksonReader.RECORDS_PER_PARSER * 2 + 10;
        String[] records = new String[count];
        for (int i = 0; i < count; i++) {
            records[i] = "{\"n\":" + i + ",\"s\":\"v" + i + "\",\"s" + (i % 50) + "\":1}";
        }
        var spec = spec(Format.JSON, List.of(), false, Map.of(), true);
        Decoder lenient = DecoderFactory.create(spec, target);
        Rows r = new Rows(target).decode(lenient, DecodeFixture.batch(records));
        assertThat(r.errors).isEmpty();
        assertThat(r.block.rows()).isEqualTo(count);
        assertThat(r.value("n", count - 1)).isEqualTo((long) count - 1);
        assertThat(r.value("s", count - 1)).isEqualTo("v" + (count - 1));
        assertThat(d.fedColumns()).containsExactly(0, 1);
    }

    @Test
    void twoColumnsCannotReadOneField() {
        assertThatThrownBy(
                        () ->
                                decode(
                                        table("a UInt8, b UInt8"),
                                        fields(Map.of("a", "/x", "b", "x"), false),
                                        List.of(),
                                        "{}"))
                .hasMessageContaining("both read");
        assertThatThrownBy(
                        () ->
                                decode(
                                        table("a UInt8"),
                                        fields(Map.of("zz", "/x"), false),
                                        List.of(),
                                        "{}"))
                .hasMessageContaining("fields: zz is not a column");
    }
}
