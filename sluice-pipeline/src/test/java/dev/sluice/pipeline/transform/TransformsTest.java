package dev.sluice.pipeline.transform;

import static dev.sluice.pipeline.decode.DecodeFixture.spec;
import static dev.sluice.pipeline.decode.DecodeFixture.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.time.ManualClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransformsTest {

    private static TransformSpec t(String kind, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new TransformSpec(kind, m);
    }

    private static Rows run(String columns, List<TransformSpec> transforms, String... json) {
        return DecodeFixture.decode(table(columns), spec(Format.JSON), transforms, json);
    }

    @Test
    void constantsConvertToTheirColumnTypes() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("s", "api");
        values.put("d", "2024-01-01");
        values.put("n", 7L);
        values.put("f", 1.5);
        values.put("b", true);
        Rows r =
                run(
                        "x UInt8, s String, d Date, n Nullable(Int32), f Float64, b UInt8",
                        List.of(t("constant", "columns", values)),
                        "{\"x\":1}",
                        "{\"x\":2}");
        assertThat(r.errors).isEmpty();
        for (int i = 0; i < 2; i++) {
            assertThat(r.value("s", i)).isEqualTo("api");
            assertThat(r.value("d", i)).isEqualTo(19723L);
            assertThat(r.value("n", i)).isEqualTo(7L);
            assertThat(r.value("f", i)).isEqualTo(1.5);
            assertThat(r.value("b", i)).isEqualTo(1L);
        }
    }

    @Test
    void computedColumnsFromOtherColumnsAndTheRecord() {
        Rows r =
                run(
                        "a String, n Int64, ts DateTime, label String, total Float64, day Date,"
                                + " user UInt64, doubled Int64, txt String, back DateTime",
                        List.of(
                                t(
                                        "computed",
                                        "columns",
                                        new LinkedHashMap<>(
                                                Map.of(
                                                        "label", "concat(a, '-', n, '@', ts)",
                                                        "total", "n / 4 + 0.5",
                                                        "day", "toDate(ts)",
                                                        "user",
                                                                "toInt64(json(raw(), '/meta/user'))"))),
                                t("computed", "column", "doubled", "expr", "n * 2 - -1"),
                                t(
                                        "computed",
                                        "column",
                                        "txt",
                                        "expr",
                                        "toString(toFloat64('2.50'))"),
                                t("computed", "column", "back", "expr", "toDateTime(day) + 60"),
                                t("drop", "field", "meta")),
                        "{\"a\":\"x\",\"n\":10,\"ts\":\"2024-01-02 03:04:05\",\"meta\":{\"user\":\"42\"}}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("label", 0)).isEqualTo("x-10@2024-01-02 03:04:05");
        assertThat(r.value("total", 0)).isEqualTo(3.0);
        assertThat(r.value("day", 0)).isEqualTo(19724L);
        assertThat(r.value("user", 0)).isEqualTo(42L);
        assertThat(r.value("doubled", 0)).isEqualTo(21L);
        assertThat(r.value("txt", 0)).isEqualTo("2.5");
        assertThat(r.value("back", 0)).isEqualTo(19724L * 86400 + 60);
    }

    @Test
    void nowAndTodayComeFromTheClock() throws RecordException {
        TableSchema table = table("x UInt8, at DateTime, day Date, s String");
        List<TransformSpec> specs =
                List.of(
                        t("computed", "column", "at", "expr", "now()"),
                        t("computed", "column", "day", "expr", "today()"),
                        t(
                                "computed",
                                "column",
                                "s",
                                "expr",
                                "concat(json('{\"a\":[1,{\"b\":2}]}', '/a/1'), json('[]', '/0'))"));
        TargetColumns target = DecoderFactory.targetColumns(spec(Format.JSON), specs, table);
        ManualClock clock = new ManualClock(1_700_000_000_500L);
        List<Transform> chain = Transforms.create(specs, target, clock);
        Rows r =
                new Rows(target)
                        .decode(
                                DecoderFactory.create(spec(Format.JSON), specs, target),
                                chain,
                                DecodeFixture.batch("{\"x\":1}"));
        assertThat(r.errors).isEmpty();
        assertThat(r.value("at", 0)).isEqualTo(1_700_000_000L);
        assertThat(r.value("day", 0)).isEqualTo(1_700_000_000L / 86400);
        assertThat(r.value("s", 0)).as("concat with a NULL is NULL: the default ''").isEqualTo("");
    }

    @Test
    void jsonExtractsValuesObjectsAndNulls() {
        Rows r =
                run(
                        "p String, a Nullable(String), b Nullable(String), c Nullable(String),"
                                + " d Nullable(String), e Nullable(String), f Nullable(String)",
                        List.of(
                                t(
                                        "computed",
                                        "columns",
                                        new LinkedHashMap<>(
                                                Map.of(
                                                        "a", "json(p, '/x')",
                                                        "b", "json(p, 'y.z')",
                                                        "c", "json(p, '/arr/1')",
                                                        "d", "json(p, '/obj')",
                                                        "e", "json(p, '/missing')",
                                                        "f", "json(p, '/nul')")))),
                        "{\"p\":\"{\\\"x\\\":\\\"é\\\",\\\"y\\\":{\\\"z\\\":1.50},\\\"arr\\\":[0,true],"
                                + "\\\"obj\\\":{\\\"k\\\": [ ]},\\\"nul\\\":null}\"}",
                        "{\"p\":\"not json\"}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo("é");
        assertThat(r.value("b", 0)).isEqualTo("1.50");
        assertThat(r.value("c", 0)).isEqualTo("true");
        assertThat(r.value("d", 0)).isEqualTo("{\"k\": [ ]}");
        assertThat(r.value("e", 0)).isNull();
        assertThat(r.value("f", 0)).isNull();
        assertThat(r.value("a", 1)).isNull();
    }

    @Test
    void filtersKeepRowsWhereTheConditionHolds() {
        String columns =
                "n Int64, s String, f Nullable(Float64), ts DateTime, e Enum8('a' = 1, 'b' = 2)";
        String[] records = {
            "{\"n\":1,\"s\":\"x\",\"f\":null,\"ts\":\"2024-01-01 00:00:00\",\"e\":\"a\"}",
            "{\"n\":2,\"s\":\"y\",\"f\":2.5,\"ts\":\"2024-06-01 00:00:00\",\"e\":\"b\"}",
            "{\"n\":3,\"s\":\"z\",\"f\":-1,\"ts\":\"2025-01-01 00:00:00\",\"e\":\"a\"}"
        };
        Map<String, List<Long>> cases = new LinkedHashMap<>();
        cases.put("n > 1", List.of(2L, 3L));
        cases.put("n >= 2 and n != 3", List.of(2L));
        cases.put("n = 1 or s = 'z'", List.of(1L, 3L));
        cases.put("not (n < 3)", List.of(3L));
        cases.put("s in ['x', 'z']", List.of(1L, 3L));
        cases.put("n not in (1, 2)", List.of(3L));
        cases.put("f is null", List.of(1L));
        cases.put("f is not null and f > 0", List.of(2L));
        cases.put("f > 0", List.of(2L));
        cases.put("not f > 0", List.of(3L)); // NULL stays NULL under not
        cases.put("f > 0 or true", List.of(1L, 2L, 3L));
        cases.put("ts >= '2024-06-01 00:00:00'", List.of(2L, 3L));
        cases.put("toDate(ts) < '2024-02-01'", List.of(1L));
        cases.put("e = 'a'", List.of(1L, 3L));
        cases.put("n % 2 = 1 and n * 10 / 4 > 1", List.of(1L, 3L));
        cases.put("s > 'x'", List.of(2L, 3L));
        cases.put("n = null", List.of());
        cases.put("concat(s, n) = 'y2'", List.of(2L));
        cases.put("n in []", List.of());
        for (Map.Entry<String, List<Long>> c : cases.entrySet()) {
            Rows r = run(columns, List.of(t("filter", "where", c.getKey())), records);
            assertThat(r.errors).as(c.getKey()).isEmpty();
            List<Long> kept = new ArrayList<>();
            for (int i = 0; i < r.block.rows(); i++) {
                kept.add((Long) r.value("n", i));
            }
            assertThat(kept).as(c.getKey()).isEqualTo(c.getValue());
            assertThat(r.dropped).as(c.getKey()).isEqualTo(3 - c.getValue().size());
        }
    }

    @Test
    void renameAndDropChangeTheMappingOnly() {
        List<TransformSpec> specs =
                List.of(
                        t("rename", "fields", Map.of("uid", "user_id")),
                        t("drop", "fields", List.of("noise")),
                        t("computed", "column", "tag", "expr", "concat('u', user_id)"));
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec(Format.JSON), specs, table("user_id UInt64, tag String"));
        assertThat(Transforms.create(specs, target)).hasSize(1);
        Rows r = run("user_id UInt64, tag String", specs, "{\"uid\":3,\"noise\":[1]}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("tag", 0)).isEqualTo("u3");
    }

    @Test
    void computedErrorsRejectTheRecord() {
        Rows r =
                run(
                        "s String, n UInt8, d Date",
                        List.of(
                                t("computed", "column", "n", "expr", "toInt64(s) + 251"),
                                t("computed", "column", "d", "expr", "toDate(s)")),
                        "{\"s\":\"5\"}",
                        "{\"s\":\"abc\"}",
                        "{\"s\":\"1\"}");
        assertThat(r.errors)
                .containsExactly(
                        "column n (UInt8): value 256 is out of range",
                        "column n (UInt8): 'abc' is not an integer");
        assertThat(r.block.rows()).isEqualTo(1);
        assertThat(r.value("n", 0)).isEqualTo(252L);
        assertThat(r.value("d", 0)).as("digits are days").isEqualTo(1L);
    }

    @Test
    void configurationErrorsSayWhereAndWhy() {
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec(Format.JSON), List.of(), table("a Int64, s String, b Int64"));
        Map<TransformSpec, String> bad = new LinkedHashMap<>();
        bad.put(t("computed", "column", "b", "expr", "nope + 1"), "unknown column nope");
        bad.put(t("computed", "column", "b", "expr", "a +"), "the expression ends too early");
        bad.put(
                t("computed", "column", "b", "expr", "s + 1"),
                "cannot apply + to String and Int64 (concat() joins strings)");
        bad.put(t("computed", "column", "b", "expr", "frob(a)"), "unknown function frob");
        bad.put(
                t("computed", "column", "b", "expr", "b + 1"),
                "column b is computed by this or a later transform");
        bad.put(t("filter", "where", "s"), "is a String, not a condition");
        bad.put(t("filter", "where", "a = 'x'"), "'x' is not a Int64");
        bad.put(t("filter", "where", "a in [1, 'x']"), "'x' is not a Int64");
        bad.put(t("filter", "where", "s = 1"), "cannot compare String with Int64");
        bad.put(t("filter", "where", "a > 1 1"), "unexpected '1'");
        bad.put(
                t("filter", "wher", "a"),
                "transforms[0].filter: unknown option 'wher' (expected where)");
        bad.put(t("computed", "column", "zz", "expr", "1"), "the pipeline writes no column zz");
        bad.put(t("frobnicate"), "unknown transform kind");
        bad.put(
                t("java", "class", "no.such.Class"),
                "class no.such.Class is not on the class path");
        bad.put(t("java", "name", "nobody"), "no TransformProvider named nobody");
        bad.put(t("computed", "column", "b", "expr", "json(a, '/x')"), "json() reads a String");
        bad.put(t("computed", "column", "b", "expr", "'unclosed"), "a string is not closed");
        for (Map.Entry<TransformSpec, String> e : bad.entrySet()) {
            assertThatThrownBy(() -> Transforms.create(List.of(e.getKey()), target))
                    .as(e.getKey().toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(e.getValue());
        }
        assertThatThrownBy(
                        () ->
                                Transforms.producedColumns(
                                        List.of(
                                                t("constant", "column", "a", "value", 1),
                                                t("computed", "column", "a", "expr", "2"))))
                .hasMessageContaining("already computed");
        assertThatThrownBy(() -> Transforms.fieldRules(List.of(t("rename", "from", "x"))))
                .hasMessageContaining("needs option 'to'");
    }

    @Test
    void javaTransformsByProviderNameOrClass() {
        DecodeSpec json = spec(Format.JSON);
        TableSchema table = table("n Int64, upper String, note String");
        List<TransformSpec> specs =
                List.of(
                        t(
                                "java",
                                "name",
                                "test-upper",
                                "columns",
                                List.of("upper"),
                                "options",
                                Map.of("from", "note")),
                        t("java", "class", TestTransforms.Doubler.class.getName()),
                        t("java", "class", TestTransforms.DropOdd.class.getName()));
        Rows r =
                DecodeFixture.decode(
                        table,
                        json,
                        specs,
                        "{\"n\":1,\"note\":\"one\"}",
                        "{\"n\":2,\"note\":\"two\"}");
        assertThat(r.errors).isEmpty();
        assertThat(r.block.rows()).isEqualTo(1);
        assertThat(r.value("n", 0)).isEqualTo(4L);
        assertThat(r.value("upper", 0)).isEqualTo("TWO");
        assertThat(r.dropped).isEqualTo(1);
        TargetColumns target = DecoderFactory.targetColumns(json, specs, table);
        assertThatThrownBy(
                        () ->
                                Transforms.create(
                                        List.of(
                                                t(
                                                        "java",
                                                        "name",
                                                        "test-upper",
                                                        "options",
                                                        Map.of("from", "note"))),
                                        target))
                .hasMessageContaining("list it under columns");
    }
}
