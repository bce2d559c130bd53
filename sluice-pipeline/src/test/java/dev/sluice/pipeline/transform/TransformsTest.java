package dev.sluice.pipeline.transform;

import static dev.sluice.pipeline.decode.DecodeFixture.spec;
import static dev.sluice.pipeline.decode.DecodeFixture.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.time.ManualClock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The transforms on the ClickHouse expression engine. Every case runs both ways the runtime applies
 * them — row by row ({@link Transform#apply}, as before a {@code java} transform) and column-wise
 * over all the rows ({@link ExpressionStage}) — and both must give the same rows.
 */
class TransformsTest {
    private static final long NOW = 1_700_000_000L; // 2023-11-14 22:13:20 UTC

    private static TransformSpec t(String kind, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return new TransformSpec(kind, m);
    }

    /** The rows of both ways, checked equal; returns the column-wise ones. */
    private static Rows run(String columns, List<TransformSpec> transforms, String... json) {
        return run(table(columns), ZoneId.of("UTC"), transforms, json);
    }

    private static Rows run(
            TableSchema table, ZoneId zone, List<TransformSpec> transforms, String... json) {
        DecodeSpec spec = spec(Format.JSON);
        TargetColumns target = DecoderFactory.targetColumns(spec, transforms, table).inZone(zone);
        PolledRecords batch = DecodeFixture.batch(json);
        ManualClock clock = new ManualClock(NOW * 1000 + 500);
        Decoder d1 = DecoderFactory.create(spec, transforms, target);
        Rows rowWise =
                new Rows(target).decode(d1, Transforms.create(transforms, target, clock), batch);
        Decoder d2 = DecoderFactory.create(spec, transforms, target);
        Rows columnar =
                new Rows(target)
                        .decodeColumnar(
                                d2, Transforms.create(transforms, target, clock), batch, NOW);
        assertThat(columnar.block.rows()).as("rows").isEqualTo(rowWise.block.rows());
        for (int c = 0; c < target.size(); c++) {
            for (int r = 0; r < rowWise.block.rows(); r++) {
                assertThat(columnar.block.column(c).getObject(r))
                        .as("column %s row %d", target.columns().get(c).name(), r)
                        .isEqualTo(rowWise.block.column(c).getObject(r));
            }
        }
        assertThat(columnar.errors).containsExactlyInAnyOrderElementsOf(rowWise.errors);
        assertThat(columnar.dropped).isEqualTo(rowWise.dropped);
        return columnar;
    }

    @Test
    void constantsConvertToTheirColumnTypesAsCastDoes() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("s", "api");
        values.put("d", "2024-01-01");
        values.put("n", 7L);
        values.put("f", 1.5);
        values.put("b", true);
        values.put("w", 300L);
        values.put("e", "b");
        Rows r =
                run(
                        "x UInt8, s String, d Date, n Nullable(Int32), f Float64, b UInt8, w UInt8,"
                                + " e Enum8('a' = 1, 'b' = 2)",
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
            assertThat(r.value("w", i)).as("CAST wraps, as the server's").isEqualTo(44L);
            assertThat(r.value("e", i)).isEqualTo("b");
        }
    }

    @Test
    void computedColumnsFromOtherColumnsComputedOnesAndTheRecord() {
        Rows r =
                run(
                        "a String, n Int64, ts DateTime, label String, total Float64, day Date,"
                                + " user UInt64, doubled Int64, txt String, back DateTime,"
                                + " price Decimal(9, 2)",
                        List.of(
                                t(
                                        "computed",
                                        "columns",
                                        new LinkedHashMap<>(
                                                Map.of(
                                                        "label",
                                                        "concat(a, '-', toString(n), '@',"
                                                                + " toString(ts))",
                                                        "total",
                                                        "n / 4 + 0.5",
                                                        "day",
                                                        "toDate(ts)",
                                                        "user",
                                                        "visitParamExtractUInt(raw(), 'user')"))),
                                t("computed", "column", "doubled", "expr", "n * 2 - -1"),
                                t(
                                        "computed",
                                        "column",
                                        "txt",
                                        "expr",
                                        "toString(toFloat64('2.50'))"),
                                t("computed", "column", "back", "expr", "toDateTime(day) + 60"),
                                t("computed", "column", "price", "expr", "total * 2"),
                                t("drop", "field", "meta")),
                        "{\"a\":\"x\",\"n\":10,\"ts\":\"2024-01-02 03:04:05\",\"meta\":{\"user\":\"42\"}}",
                        "{\"a\":\"y\",\"n\":-3,\"ts\":\"2024-01-03 00:00:00\",\"meta\":{}}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("label", 0)).isEqualTo("x-10@2024-01-02 03:04:05");
        assertThat(r.value("total", 0)).isEqualTo(3.0);
        assertThat(r.value("day", 0)).isEqualTo(19724L);
        assertThat(r.value("user", 0)).isEqualTo(42L);
        assertThat(r.value("user", 1)).as("no such parameter: 0").isEqualTo(0L);
        assertThat(r.value("doubled", 0)).isEqualTo(21L);
        assertThat(r.value("txt", 0)).isEqualTo("2.5");
        assertThat(r.value("back", 0)).isEqualTo(19724L * 86400 + 60);
        assertThat(r.value("price", 0))
                .as("a type the engine does not produce goes through the column's converter")
                .hasToString("6.00");
        assertThat(r.value("label", 1)).isEqualTo("y--3@2024-01-03 00:00:00");
    }

    @Test
    void nowAndTodayAreTheBatchsInTheServersTimeZone() {
        TableSchema table = table("x UInt8, at DateTime, day Date, local String");
        List<TransformSpec> specs =
                List.of(
                        t("computed", "column", "at", "expr", "now()"),
                        t("computed", "column", "day", "expr", "today()"),
                        t("computed", "column", "local", "expr", "toString(now())"));
        // 2023-11-14 22:13:20 UTC is already the 15th in Kolkata (UTC+5:30).
        Rows r = run(table, ZoneId.of("Asia/Kolkata"), specs, "{\"x\":1}");
        assertThat(r.value("at", 0)).isEqualTo(NOW);
        assertThat(r.value("day", 0)).isEqualTo(NOW / 86400 + 1);
        assertThat(r.value("local", 0)).isEqualTo("2023-11-15 03:43:20");
        Rows utc = run(table, ZoneId.of("UTC"), specs, "{\"x\":1}");
        assertThat(utc.value("day", 0)).isEqualTo(NOW / 86400);
    }

    @Test
    void visitParamFunctionsReadJsonText() {
        Rows r =
                run(
                        "p String, a String, b Float64, c Int64, d String, e UInt8, f UInt8",
                        List.of(
                                t(
                                        "computed",
                                        "columns",
                                        new LinkedHashMap<>(
                                                Map.of(
                                                        "a", "visitParamExtractString(p, 'x')",
                                                        "b", "visitParamExtractFloat(p, 'y')",
                                                        "c", "visitParamExtractInt(p, 'z')",
                                                        "d", "visitParamExtractRaw(p, 'obj')",
                                                        "e", "visitParamHas(p, 'missing')",
                                                        "f", "visitParamExtractBool(p, 't')")))),
                        "{\"p\":\"{\\\"x\\\":\\\"\\\\u00e9t\\\\u00e9\\\",\\\"y\\\":1.50,\\\"z\\\":-7,"
                                + "\\\"obj\\\":{\\\"k\\\": [1, 2]},\\\"t\\\":true}\"}",
                        "{\"p\":\"not json\"}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo("été");
        assertThat(r.value("b", 0)).isEqualTo(1.5);
        assertThat(r.value("c", 0)).isEqualTo(-7L);
        assertThat(r.value("d", 0)).isEqualTo("{\"k\": [1, 2]}");
        assertThat(r.value("e", 0)).isEqualTo(0L);
        assertThat(r.value("f", 0)).isEqualTo(1L);
        assertThat(r.value("a", 1)).isEqualTo("");
        assertThat(r.value("c", 1)).isEqualTo(0L);
    }

    @Test
    void filtersKeepRowsWhereTheConditionIsNeitherZeroNorNull() {
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
        cases.put("s in ('x', 'z')", List.of(1L, 3L));
        cases.put("n not in (1, 2)", List.of(3L));
        cases.put("f is null", List.of(1L));
        cases.put("f is not null and f > 0", List.of(2L));
        cases.put("f > 0", List.of(2L));
        cases.put("not f > 0", List.of(3L)); // NULL stays NULL under not
        cases.put("f > 0 or 1", List.of(1L, 2L, 3L));
        cases.put("f > 0 and 1", List.of(2L));
        cases.put("ts >= '2024-06-01 00:00:00'", List.of(2L, 3L));
        cases.put("toDate(ts) < '2024-02-01'", List.of(1L));
        cases.put("e = 'a'", List.of(1L, 3L));
        cases.put("n % 2 = 1 and n * 10 / 4 > 1", List.of(1L, 3L));
        cases.put("s > 'x'", List.of(2L, 3L));
        cases.put("n = NULL", List.of());
        cases.put("concat(s, toString(n)) = 'y2'", List.of(2L));
        cases.put("n IN (2)", List.of(2L));
        cases.put("if(n > 1, s = 'y', 1)", List.of(1L, 2L));
        cases.put("multiIf(n = 1, 0, n = 2, 1, 0)", List.of(2L));
        cases.put("coalesce(f, 0) <= 0", List.of(1L, 3L));
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
    void filtersAndComputedColumnsInterleaveAndMarksFollowTheKeptRows() {
        List<TransformSpec> specs =
                List.of(
                        t("computed", "column", "half", "expr", "intDiv(n, 2)"),
                        t("filter", "where", "half != 1"),
                        t("computed", "column", "label", "expr", "concat(s, ':', toString(half))"),
                        t("filter", "where", "length(label) < 5"));
        String[] records = new String[20];
        for (int i = 0; i < records.length; i++) {
            records[i] =
                    i % 3 == 0
                            ? "{\"n\":" + i + "}" // s is absent: its default '' is marked
                            : "{\"n\":" + i + ",\"s\":\"" + "s".repeat(i % 4) + "\"}";
        }
        Rows r = run("n Int64, s String, half Int64, label String", specs, records);
        assertThat(r.errors).isEmpty();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < r.block.rows(); i++) {
            labels.add(r.value("n", i) + "=" + r.value("label", i));
            String s = (String) r.value("s", i);
            long n = (Long) r.value("n", i);
            assertThat(r.isAbsent("s", i)).as("row of n=%d", n).isEqualTo(n % 3 == 0);
            assertThat(s).isEqualTo(n % 3 == 0 ? "" : "s".repeat((int) (n % 4)));
        }
        assertThat(labels)
                .containsExactly(
                        "0=:0", "1=s:0", "4=:2", "5=s:2", "6=:3", "8=:4", "9=:4", "10=ss:5",
                        "12=:6", "13=s:6", "14=ss:7", "15=:7", "16=:8", "17=s:8", "18=:9");
        assertThat(r.dropped).isEqualTo(5);
    }

    @Test
    void renameAndDropChangeTheMappingOnly() {
        List<TransformSpec> specs =
                List.of(
                        t("rename", "fields", Map.of("uid", "user_id")),
                        t("drop", "fields", List.of("noise")),
                        t("computed", "column", "tag", "expr", "concat('u', toString(user_id))"));
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec(Format.JSON), specs, table("user_id UInt64, tag String"));
        assertThat(Transforms.create(specs, target)).hasSize(1);
        Rows r = run("user_id UInt64, tag String", specs, "{\"uid\":3,\"noise\":[1]}");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("tag", 0)).isEqualTo("u3");
    }

    @Test
    void valuesTheEngineRefusesRejectTheRecordWithTheColumnOrFilter() {
        Rows r =
                run(
                        "s String, n UInt8, d Date, ns Nullable(String), m String",
                        List.of(
                                t("computed", "column", "n", "expr", "toInt64(s) + 251"),
                                t("computed", "column", "d", "expr", "toDate('2024-01-0' || s)"),
                                t("filter", "where", "toFloat64(s) < 9"),
                                t("computed", "column", "m", "expr", "ns")),
                        "{\"s\":\"5\",\"ns\":\"a\"}",
                        "{\"s\":\"abc\",\"ns\":\"b\"}",
                        "{\"s\":\"1\",\"ns\":null}",
                        "{\"s\":\"7\",\"ns\":\"c\"}",
                        "{\"s\":\"3e1\",\"ns\":\"d\"}");
        assertThat(r.errors)
                .containsExactly(
                        "column n (UInt8): 'abc' is not a plain Int64 literal",
                        "column m (String): NULL cannot be converted to the non-Nullable String",
                        "column n (UInt8): '3e1' is not a plain Int64 literal");
        assertThat(r.block.rows()).isEqualTo(2);
        assertThat(r.value("n", 0)).as("256 wraps to 0, as the server's CAST").isEqualTo(0L);
        assertThat(r.value("d", 0)).isEqualTo(19727L);
        assertThat(r.value("m", 1)).isEqualTo("c");
    }

    @Test
    void aChainWithAJavaTransformRunsTheExpressionsBeforeItRowByRow() {
        List<TransformSpec> specs =
                List.of(
                        t("computed", "column", "note", "expr", "concat('n', toString(n))"),
                        t(
                                "java",
                                "name",
                                "test-upper",
                                "columns",
                                List.of("upper"),
                                "options",
                                Map.of("from", "note")),
                        t("filter", "where", "upper != 'N2'"),
                        t("computed", "column", "len", "expr", "length(upper)"));
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec(Format.JSON),
                        specs,
                        table("n Int64, note String, upper String, len UInt64"));
        TransformChain chain = TransformChain.of(Transforms.create(specs, target));
        assertThat(chain.stage()).isNotNull();
        Rows r =
                run(
                        "n Int64, note String, upper String, len UInt64",
                        specs,
                        "{\"n\":1}",
                        "{\"n\":2}",
                        "{\"n\":30}");
        assertThat(r.block.rows()).isEqualTo(2);
        assertThat(r.value("upper", 1)).isEqualTo("N30");
        assertThat(r.value("len", 1)).isEqualTo(3L);
    }

    @Test
    void configurationErrorsSayWhereAndWhy() {
        TargetColumns target =
                DecoderFactory.targetColumns(
                        spec(Format.JSON),
                        List.of(),
                        table(
                                "a Int64, s String, b Int64, arr Array(String), d Decimal(9, 2),"
                                        + " dd Decimal(9, 2)"));
        Map<TransformSpec, String> bad = new LinkedHashMap<>();
        bad.put(t("computed", "column", "b", "expr", "nope + 1"), "unknown column nope");
        bad.put(t("computed", "column", "b", "expr", "a +"), "cannot parse a +");
        bad.put(t("computed", "column", "b", "expr", "s + 1"), "plus(String, UInt8)");
        bad.put(t("computed", "column", "b", "expr", "frob(a)"), "function frob is not supported");
        bad.put(
                t("computed", "column", "b", "expr", "b + 1"),
                "column b is computed by this or a later transform");
        bad.put(t("computed", "column", "b", "expr", "arr"), "Array(String)");
        bad.put(t("computed", "column", "d", "expr", "dd"), "cannot be written to Decimal(9, 2)");
        bad.put(t("filter", "where", "s"), "is a String, not a condition");
        bad.put(t("filter", "where", "a + 1"), "is a Int64, not a condition");
        bad.put(t("filter", "where", "a = 'x'"), "a string compares only with a string");
        bad.put(t("filter", "where", "a in (1, 'x')"), "'x' is not a Int64");
        bad.put(t("filter", "where", "a > 1 1"), "unexpected '1'");
        bad.put(t("filter", "where", "a in [1, 2]"), "takes a list of constants");
        bad.put(t("filter", "where", "true"), "unknown column true");
        bad.put(
                t("filter", "wher", "a"),
                "transforms[0].filter: unknown option 'wher' (expected where)");
        bad.put(t("computed", "column", "zz", "expr", "1"), "the pipeline writes no column zz");
        bad.put(t("frobnicate"), "unknown transform kind");
        bad.put(
                t("java", "class", "no.such.Class"),
                "class no.such.Class is not on the class path");
        bad.put(t("java", "name", "nobody"), "no TransformProvider named nobody");
        bad.put(
                t("computed", "column", "b", "expr", "visitParamExtractInt(a, 'x')"),
                "visitParamExtractInt of Int64 is not supported");
        bad.put(t("computed", "column", "b", "expr", "'unclosed"), "unterminated quoted text");
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
        assertThat(TransformChain.of(Transforms.create(specs, target)).stage()).isNull();
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
