package dev.sluice.pipeline.decode.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.AvroSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.transform.Transforms;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.util.TimePeriod;
import org.junit.jupiter.api.Test;

/**
 * The Avro decoder on records written by Avro's own GenericDatumWriter: every Avro type into the
 * column types that can hold it, nulls and absent fields, schema evolution, and bad input.
 */
class AvroDecoderTest {
    static final RegistrySpec REGISTRY =
            new RegistrySpec(
                    "http://127.0.0.1:1",
                    null,
                    null,
                    null,
                    Duration.ofSeconds(1),
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    null);

    static DecodeSpec confluent(boolean ignoreUnknown) {
        return DecodeSpec.avro(new AvroSpec(AvroFraming.CONFLUENT, null, REGISTRY), ignoreUnknown);
    }

    /** Decodes Confluent-framed records (the schemas by id in {@code schemas}). */
    static Rows decode(
            String columns,
            MapSchemas schemas,
            boolean ignoreUnknown,
            List<TransformSpec> transforms,
            byte[]... records) {
        TableSchema table = DecodeFixture.table(columns);
        DecodeSpec spec = confluent(ignoreUnknown);
        TargetColumns target = DecoderFactory.targetColumns(spec, transforms, table);
        Decoder d = DecoderFactory.create(spec, transforms, target, schemas);
        return new Rows(target)
                .decode(d, Transforms.create(transforms, target), DecodeFixture.batch(records));
    }

    static Rows decode(String columns, Schema schema, Map<String, Object> values) {
        return decode(
                columns,
                new MapSchemas().with(1, schema),
                false,
                List.of(),
                AvroBytes.framed(1, schema, AvroBytes.record(schema, values)));
    }

    static Map<String, Object> values(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static Schema record(String fields) {
        return AvroBytes.schema(
                "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"t\",\"fields\":["
                        + fields
                        + "]}");
    }

    static void noErrors(Rows rows) {
        assertThat(rows.errors).isEmpty();
    }

    @Test
    void primitivesGoToTheirColumns() {
        Schema s =
                record(
                        """
                        {"name":"b","type":"boolean"},{"name":"b8","type":"boolean"},
                        {"name":"i","type":"int"},{"name":"l","type":"long"},
                        {"name":"f","type":"float"},{"name":"d","type":"double"},
                        {"name":"s","type":"string"},{"name":"by","type":"bytes"},
                        {"name":"fx","type":{"type":"fixed","name":"F4","size":4}},
                        {"name":"n","type":"null"}""");
        Rows rows =
                decode(
                        "b Bool, b8 UInt8, i Int32, l Int64, f Float32, d Float64, s String,"
                                + " by String, fx FixedString(4), n Nullable(String)",
                        s,
                        values(
                                "b",
                                true,
                                "b8",
                                false,
                                "i",
                                -2147483648,
                                "l",
                                Long.MAX_VALUE,
                                "f",
                                0.1f,
                                "d",
                                -1.5e300,
                                "s",
                                "héllo",
                                "by",
                                ByteBuffer.wrap(new byte[] {0, (byte) 0xff, 'a'}),
                                "fx",
                                new GenericData.Fixed(
                                        s.getField("fx").schema(), new byte[] {1, 2, 3, 4}),
                                "n",
                                null));
        noErrors(rows);
        assertThat(rows.value("b", 0)).isEqualTo(1L);
        assertThat(rows.value("b8", 0)).isEqualTo(0L);
        assertThat(rows.value("i", 0)).isEqualTo(-2147483648L);
        assertThat(rows.value("l", 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(rows.value("f", 0)).isEqualTo(0.1f);
        assertThat(rows.value("d", 0)).isEqualTo(-1.5e300);
        assertThat(rows.value("s", 0)).isEqualTo("héllo");
        assertThat(
                        rows.block
                                .column("by")
                                .getString(0)
                                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))
                .hasSize(3);
        assertThat((byte[]) rows.value("fx", 0)).containsExactly(1, 2, 3, 4);
        assertThat(rows.value("n", 0)).isNull();
        assertThat(rows.isAbsent("n", 0)).isFalse();
    }

    @Test
    void numbersConvertByTheColumnsRules() {
        Schema s =
                record(
                        """
                        {"name":"a","type":"long"},{"name":"b","type":"int"},
                        {"name":"c","type":"double"},{"name":"d","type":"float"},
                        {"name":"e","type":"int"},{"name":"g","type":"long"}""");
        Rows rows =
                decode(
                        "a String, b Float64, c Int64, d String, e Decimal(9, 2), g DateTime",
                        s,
                        values("a", 42L, "b", 7, "c", 3.0, "d", 0.1f, "e", 12, "g", 1700000000L));
        noErrors(rows);
        assertThat(rows.value("a", 0)).isEqualTo("42");
        assertThat(rows.value("b", 0)).isEqualTo(7.0);
        assertThat(rows.value("c", 0)).isEqualTo(3L);
        assertThat(rows.value("d", 0)).isEqualTo("0.1");
        assertThat(rows.value("e", 0)).isEqualTo(new BigDecimal("12.00"));
        assertThat(rows.value("g", 0)).isEqualTo(1700000000L);

        Rows out =
                decode("a UInt8", record("{\"name\":\"a\",\"type\":\"long\"}"), values("a", 300L));
        assertThat(out.errors)
                .singleElement()
                .asString()
                .contains("column a (UInt8)")
                .contains("300");
    }

    @Test
    void enumsByNameIntoEnumStringAndLowCardinality() {
        Schema s =
                record(
                        """
                        {"name":"e","type":{"type":"enum","name":"Color","symbols":["RED","GREEN","BLUE"]}},
                        {"name":"s","type":"Color"},{"name":"lc","type":"Color"}""");
        Schema color = s.getField("e").schema();
        Rows rows =
                decode(
                        "e Enum8('BLUE' = -3, 'GREEN' = 5, 'RED' = 1), s String,"
                                + " lc LowCardinality(String)",
                        s,
                        values(
                                "e", new GenericData.EnumSymbol(color, "GREEN"),
                                "s", new GenericData.EnumSymbol(color, "BLUE"),
                                "lc", new GenericData.EnumSymbol(color, "RED")));
        noErrors(rows);
        assertThat(rows.value("e", 0)).isEqualTo("GREEN");
        assertThat(rows.block.column("e").getLong(0)).isEqualTo(5);
        assertThat(rows.value("s", 0)).isEqualTo("BLUE");
        assertThat(rows.value("lc", 0)).isEqualTo("RED");

        Rows missing =
                decode(
                        "e Enum8('RED' = 1)",
                        record(
                                "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"RED\",\"PINK\"]}}"),
                        values(
                                "e",
                                new GenericData.EnumSymbol(
                                        record(
                                                        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"RED\",\"PINK\"]}}")
                                                .getField("e")
                                                .schema(),
                                        "PINK")));
        assertThat(missing.errors)
                .singleElement()
                .asString()
                .contains("column e (Enum8('RED' = 1))")
                .contains("'PINK' (a symbol of t.C) is not a name of Enum8");
    }

    @Test
    void arraysMapsAndNestedRecords() {
        Schema s =
                record(
                        """
                        {"name":"tags","type":{"type":"array","items":"string"}},
                        {"name":"maybe","type":{"type":"array","items":["null","long"]}},
                        {"name":"attrs","type":{"type":"map","values":"long"}},
                        {"name":"kv","type":{"type":"map","values":"string"}},
                        {"name":"point","type":{"type":"record","name":"P","fields":[{"name":"x","type":"double"},{"name":"y","type":"double"}]}},
                        {"name":"user","type":{"type":"record","name":"U","fields":[{"name":"id","type":"long"},{"name":"name","type":"string"},
                            {"name":"geo","type":{"type":"record","name":"G","fields":[{"name":"cc","type":"string"}]}}]}},
                        {"name":"pts","type":{"type":"array","items":"P"}}""");
        Schema p = s.getField("point").schema();
        Schema u = s.getField("user").schema();
        Schema g = u.getField("geo").schema();
        Map<String, Long> attrs = new LinkedHashMap<>();
        attrs.put("a", 1L);
        attrs.put("b", 2L);
        Rows rows =
                decode(
                        "tags Array(String), maybe Array(Nullable(Int64)), attrs Map(String, Int64),"
                                + " kv.keys Array(String), kv.values Array(String),"
                                + " point Tuple(x Float64, y Float64), user.id UInt64,"
                                + " user.name String, user.geo.cc FixedString(2),"
                                + " pts Array(Tuple(Float64, Float64))",
                        s,
                        values(
                                "tags", List.of("a", "b", "c"),
                                "maybe", Arrays.asList(1L, null, 3L),
                                "attrs", attrs,
                                "kv", Map.of("k", "v"),
                                "point", AvroBytes.record(p, values("x", 1.5, "y", -2.0)),
                                "user",
                                        AvroBytes.record(
                                                u,
                                                values(
                                                        "id",
                                                        7L,
                                                        "name",
                                                        "ann",
                                                        "geo",
                                                        AvroBytes.record(g, values("cc", "DE")))),
                                "pts",
                                        List.of(
                                                AvroBytes.record(p, values("x", 0.0, "y", 1.0)),
                                                AvroBytes.record(p, values("x", 2.0, "y", 3.0)))));
        noErrors(rows);
        assertThat(rows.value("tags", 0)).isEqualTo(List.of("a", "b", "c"));
        assertThat(rows.value("maybe", 0)).isEqualTo(Arrays.asList(1L, null, 3L));
        assertThat(rows.value("attrs", 0)).isEqualTo(attrs);
        assertThat(rows.value("kv.keys", 0)).isEqualTo(List.of("k"));
        assertThat(rows.value("kv.values", 0)).isEqualTo(List.of("v"));
        assertThat(rows.value("point", 0)).isEqualTo(List.of(1.5, -2.0));
        assertThat(rows.value("user.id", 0)).isEqualTo(7L);
        assertThat(rows.value("user.name", 0)).isEqualTo("ann");
        assertThat(rows.block.column("user.geo.cc").getString(0)).isEqualTo("DE");
        assertThat(rows.value("pts", 0)).isEqualTo(List.of(List.of(0.0, 1.0), List.of(2.0, 3.0)));
    }

    @Test
    void logicalTypes() {
        Schema s =
                record(
                        """
                        {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
                        {"name":"decf","type":{"type":"fixed","name":"D16","size":16,"logicalType":"decimal","precision":38,"scale":10}},
                        {"name":"dec_up","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":1}},
                        {"name":"dec_s","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
                        {"name":"big","type":{"type":"bytes","logicalType":"big-decimal"}},
                        {"name":"u","type":{"type":"string","logicalType":"uuid"}},
                        {"name":"uf","type":{"type":"fixed","name":"U16","size":16,"logicalType":"uuid"}},
                        {"name":"ufs","type":"U16"},
                        {"name":"day","type":{"type":"int","logicalType":"date"}},
                        {"name":"day_s","type":{"type":"int","logicalType":"date"}},
                        {"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
                        {"name":"tm_n","type":{"type":"int","logicalType":"time-millis"}},
                        {"name":"tu","type":{"type":"long","logicalType":"time-micros"}},
                        {"name":"ts_ms","type":{"type":"long","logicalType":"timestamp-millis"}},
                        {"name":"ts_ms64","type":{"type":"long","logicalType":"timestamp-millis"}},
                        {"name":"ts_us","type":{"type":"long","logicalType":"timestamp-micros"}},
                        {"name":"ts_ns","type":{"type":"long","logicalType":"timestamp-nanos"}},
                        {"name":"ts_s","type":{"type":"long","logicalType":"timestamp-micros"}},
                        {"name":"ts_d","type":{"type":"long","logicalType":"timestamp-millis"}},
                        {"name":"ts_n","type":{"type":"long","logicalType":"timestamp-millis"}},
                        {"name":"lts","type":{"type":"long","logicalType":"local-timestamp-millis"}},
                        {"name":"lts_utc","type":{"type":"long","logicalType":"local-timestamp-micros"}},
                        {"name":"ltn","type":{"type":"long","logicalType":"local-timestamp-nanos"}},
                        {"name":"dur","type":{"type":"fixed","name":"Dur","size":12,"logicalType":"duration"}},
                        {"name":"dur_s","type":"Dur"}""");
        UUID id = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        Instant t = Instant.parse("2024-02-29T12:34:56.789123456Z");
        Rows rows =
                decode(
                        "dec Decimal(9, 2), decf Decimal(38, 10), dec_up Decimal(18, 4), dec_s String,"
                                + " big Decimal(20, 5), u UUID, uf UUID, ufs String, day Date,"
                                + " day_s String, tm String, tm_n UInt32, tu String, ts_ms DateTime,"
                                + " ts_ms64 DateTime64(3), ts_us DateTime64(6), ts_ns DateTime64(9),"
                                + " ts_s String, ts_d Date, ts_n Int64,"
                                + " lts DateTime64(3, 'Asia/Kolkata'), lts_utc DateTime64(6),"
                                + " ltn String, dur Tuple(UInt32, UInt32, UInt32), dur_s String",
                        s,
                        values(
                                "dec",
                                new BigDecimal("-1234.56"),
                                "decf",
                                new BigDecimal("-12345678901234567890.0123456789"),
                                "dec_up",
                                new BigDecimal("12.3"),
                                "dec_s",
                                new BigDecimal("0.05"),
                                "big",
                                new BigDecimal("123456789012345.12345"),
                                "u",
                                id,
                                "uf",
                                id,
                                "ufs",
                                id,
                                "day",
                                LocalDate.of(2024, 2, 29),
                                "day_s",
                                LocalDate.of(1999, 12, 31),
                                "tm",
                                LocalTime.of(23, 59, 58, 123_000_000),
                                "tm_n",
                                LocalTime.of(0, 0, 1, 5_000_000),
                                "tu",
                                LocalTime.of(1, 2, 3, 456_789_000),
                                "ts_ms",
                                t,
                                "ts_ms64",
                                t,
                                "ts_us",
                                t,
                                "ts_ns",
                                t,
                                "ts_s",
                                t,
                                "ts_d",
                                t,
                                "ts_n",
                                t,
                                "lts",
                                LocalDateTime.of(2024, 1, 1, 5, 30, 0, 250_000_000),
                                "lts_utc",
                                LocalDateTime.of(2024, 1, 1, 5, 30, 0, 1000),
                                "ltn",
                                LocalDateTime.of(2024, 1, 1, 5, 30, 0, 7),
                                "dur",
                                TimePeriod.of(1, 2, 3004),
                                "dur_s",
                                TimePeriod.of(14, 0, 61_500)));
        noErrors(rows);
        assertThat(rows.value("dec", 0)).isEqualTo(new BigDecimal("-1234.56"));
        assertThat(rows.value("decf", 0))
                .isEqualTo(new BigDecimal("-12345678901234567890.0123456789"));
        assertThat(rows.value("dec_up", 0)).isEqualTo(new BigDecimal("12.3000"));
        assertThat(rows.value("dec_s", 0)).isEqualTo("0.05");
        assertThat(rows.value("big", 0)).isEqualTo(new BigDecimal("123456789012345.12345"));
        assertThat(rows.value("u", 0)).isEqualTo(id);
        assertThat(rows.value("uf", 0)).isEqualTo(id);
        assertThat(rows.value("ufs", 0)).isEqualTo(id.toString());
        assertThat(rows.value("day", 0)).isEqualTo(LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(rows.value("day_s", 0)).isEqualTo("1999-12-31");
        assertThat(rows.value("tm", 0)).isEqualTo("23:59:58.123");
        assertThat(rows.value("tm_n", 0)).isEqualTo(1005L);
        assertThat(rows.value("tu", 0)).isEqualTo("01:02:03.456789");
        assertThat(rows.value("ts_ms", 0)).isEqualTo(t.getEpochSecond());
        assertThat(rows.value("ts_ms64", 0)).isEqualTo(t.toEpochMilli());
        assertThat(rows.value("ts_us", 0)).isEqualTo(t.getEpochSecond() * 1_000_000 + 789_123);
        assertThat(rows.value("ts_ns", 0))
                .isEqualTo(t.getEpochSecond() * 1_000_000_000 + 789_123_456);
        assertThat(rows.value("ts_s", 0)).isEqualTo("2024-02-29 12:34:56.789123");
        assertThat(rows.value("ts_d", 0)).isEqualTo(LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(rows.value("ts_n", 0)).isEqualTo(t.toEpochMilli());
        // 05:30:00.250 in Kolkata (+05:30) is midnight UTC
        assertThat(rows.value("lts", 0))
                .isEqualTo(Instant.parse("2024-01-01T00:00:00.250Z").toEpochMilli());
        assertThat(rows.value("lts_utc", 0))
                .isEqualTo(Instant.parse("2024-01-01T05:30:00.000001Z").toEpochMilli() * 1000 + 1);
        assertThat(rows.value("ltn", 0)).isEqualTo("2024-01-01 05:30:00.000000007");
        assertThat(rows.value("dur", 0)).isEqualTo(List.of(1L, 2L, 3004L));
        assertThat(rows.value("dur_s", 0)).isEqualTo("P14M0DT61.500S");
    }

    @Test
    void unionsWithNullAndAbsentFields() {
        Schema s =
                record(
                        """
                        {"name":"a","type":["null","string"]},{"name":"b","type":["long","null"]},
                        {"name":"c","type":["null","long"]},
                        {"name":"geo","type":["null",{"type":"record","name":"G","fields":[{"name":"lat","type":"double"},{"name":"cc","type":"string"}]}]}""");
        Schema geo = s.getField("geo").schema().getTypes().get(1);
        TableSchema table =
                DecodeFixture.table(
                        "a Nullable(String), b Nullable(Int64), c Int64, missing String,"
                                + " geo.lat Nullable(Float64), geo.cc String");
        MapSchemas schemas = new MapSchemas().with(3, s);
        byte[] nulls =
                AvroBytes.framed(
                        3,
                        s,
                        AvroBytes.record(s, values("a", null, "b", null, "c", null, "geo", null)));
        byte[] full =
                AvroBytes.framed(
                        3,
                        s,
                        AvroBytes.record(
                                s,
                                values(
                                        "a",
                                        "x",
                                        "b",
                                        5L,
                                        "c",
                                        6L,
                                        "geo",
                                        AvroBytes.record(geo, values("lat", 52.5, "cc", "DE")))));
        DecodeSpec spec = confluent(false);
        TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), table);
        Rows rows =
                new Rows(target)
                        .decode(
                                DecoderFactory.create(spec, List.of(), target, schemas),
                                DecodeFixture.batch(nulls, full));
        noErrors(rows);
        assertThat(rows.value("a", 0)).isNull();
        assertThat(rows.isAbsent("a", 0)).isFalse();
        assertThat(rows.value("b", 0)).isNull();
        assertThat(rows.value("c", 0)).isEqualTo(0L);
        assertThat(rows.isAbsent("c", 0)).as("null for a non-Nullable column is absent").isTrue();
        assertThat(rows.isAbsent("missing", 0)).isTrue();
        assertThat(rows.isAbsent("missing", 1)).isTrue();
        assertThat(rows.value("geo.lat", 0)).isNull();
        assertThat(rows.isAbsent("geo.cc", 0)).isTrue();
        assertThat(List.of(rows.value("a", 1), rows.value("b", 1), rows.value("c", 1)))
                .containsExactly("x", 5L, 6L);
        assertThat(rows.value("geo.lat", 1)).isEqualTo(52.5);
        assertThat(rows.value("geo.cc", 1)).isEqualTo("DE");
        assertThat(rows.isAbsent("geo.cc", 1)).isFalse();
    }

    @Test
    void otherUnionsTakeEachBranchByTheColumnsRules() {
        Schema s =
                record(
                        "{\"name\":\"v\",\"type\":[\"null\",\"long\",\"string\",{\"type\":\"array\",\"items\":\"int\"}]}");
        MapSchemas schemas = new MapSchemas().with(1, s);
        Rows rows =
                decode(
                        "v Nullable(Int64)",
                        schemas,
                        false,
                        List.of(),
                        AvroBytes.framed(1, s, AvroBytes.record(s, values("v", 5L))),
                        AvroBytes.framed(1, s, AvroBytes.record(s, values("v", "17"))),
                        AvroBytes.framed(1, s, AvroBytes.record(s, values("v", null))),
                        AvroBytes.framed(1, s, AvroBytes.record(s, values("v", "x"))),
                        AvroBytes.framed(1, s, AvroBytes.record(s, values("v", List.of(1)))));
        assertThat(rows.block.rows()).isEqualTo(3);
        assertThat(rows.value("v", 0)).isEqualTo(5L);
        assertThat(rows.value("v", 1)).isEqualTo(17L);
        assertThat(rows.value("v", 2)).isNull();
        assertThat(rows.errors).hasSize(2);
        assertThat(rows.errors.get(0)).contains("column v (Nullable(Int64))").contains("'x'");
        assertThat(rows.errors.get(1))
                .contains("column v (Nullable(Int64))")
                .contains("the union's array of int branch")
                .contains("needs an Array");
    }

    @Test
    void schemaEvolutionEachIdItsOwnPlan() {
        Schema v1 =
                record(
                        "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"}");
        Schema v2 =
                record(
                        "{\"name\":\"email\",\"type\":[\"null\",\"string\"],\"default\":null},"
                                + "{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"id\",\"type\":\"long\"}");
        MapSchemas schemas = new MapSchemas().with(10, v1).with(11, v2);
        Rows rows =
                decode(
                        "id UInt64, name String, email Nullable(String)",
                        schemas,
                        false,
                        List.of(),
                        AvroBytes.framed(
                                10, v1, AvroBytes.record(v1, values("id", 1L, "name", "a"))),
                        AvroBytes.framed(
                                11,
                                v2,
                                AvroBytes.record(
                                        v2, values("id", 2L, "name", "b", "email", "b@x"))),
                        AvroBytes.framed(
                                10, v1, AvroBytes.record(v1, values("id", 3L, "name", "c"))),
                        AvroBytes.framed(
                                11, v2, AvroBytes.record(v2, values("id", 4L, "name", "d"))));
        noErrors(rows);
        assertThat(rows.block.rows()).isEqualTo(4);
        for (int r = 0; r < 4; r++) {
            assertThat(rows.value("id", r)).isEqualTo(r + 1L);
            assertThat(rows.value("name", r)).isEqualTo(String.valueOf((char) ('a' + r)));
        }
        assertThat(rows.isAbsent("email", 0)).isTrue();
        assertThat(rows.value("email", 1)).isEqualTo("b@x");
        assertThat(rows.isAbsent("email", 2)).isTrue();
        assertThat(rows.value("email", 3)).isNull();
        assertThat(rows.isAbsent("email", 3)).isFalse();
        assertThat(schemas.lookups.get()).as("one lookup per id, then the plan cache").isEqualTo(2);
    }

    @Test
    void unknownFieldsRenamesAndDrops() {
        Schema s =
                record(
                        "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"extra\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}");
        byte[] rec =
                AvroBytes.framed(
                        1, s, AvroBytes.record(s, values("id", 1L, "extra", List.of("x"))));
        MapSchemas schemas = new MapSchemas().with(1, s);

        Rows strict = decode("id UInt64", schemas, false, List.of(), rec, rec);
        assertThat(strict.errors)
                .hasSize(2)
                .allSatisfy(
                        e ->
                                assertThat(e)
                                        .startsWith("field extra: table db.t has no column extra")
                                        .contains("ignore_unknown skips such fields")
                                        .contains("schema id 1"));

        Rows ignored = decode("id UInt64", schemas, true, List.of(), rec);
        noErrors(ignored);
        assertThat(ignored.value("id", 0)).isEqualTo(1L);

        Rows dropped =
                decode(
                        "id UInt64",
                        schemas,
                        false,
                        List.of(new TransformSpec("drop", Map.of("fields", List.of("extra")))),
                        rec);
        noErrors(dropped);

        Rows renamed =
                decode(
                        "id UInt64, labels Array(String)",
                        schemas,
                        false,
                        List.of(
                                new TransformSpec(
                                        "rename", Map.of("from", "extra", "to", "labels"))),
                        rec);
        noErrors(renamed);
        assertThat(renamed.value("labels", 0)).isEqualTo(List.of("x"));
    }

    @Test
    void structuralMismatchesAreErrorsNamingTheField() {
        Schema s = record("{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}");
        Rows rows = decode("tags String", s, values("tags", List.of("a")));
        assertThat(rows.errors)
                .singleElement()
                .asString()
                .isEqualTo(
                        "field tags: an Avro array of string cannot go to a column of type String;"
                                + " it needs an Array (schema id 1)");

        Schema notRecord = AvroBytes.schema("\"string\"");
        Rows scalar =
                decode(
                        "s String",
                        new MapSchemas().with(1, notRecord),
                        false,
                        List.of(),
                        AvroBytes.framed(1, notRecord, "x"));
        assertThat(scalar.errors)
                .singleElement()
                .asString()
                .contains("the writer schema (schema id 1) is string, not a record");
    }

    @Test
    void framingErrors() {
        Schema s = record("{\"name\":\"id\",\"type\":\"long\"}");
        MapSchemas schemas = new MapSchemas().with(1, s);
        byte[] good = AvroBytes.framed(1, s, AvroBytes.record(s, values("id", 1L)));
        byte[] magic = good.clone();
        magic[0] = '{';
        byte[] unknown = good.clone();
        unknown[4] = 42;
        byte[] trailing = Arrays.copyOf(good, good.length + 2);
        Rows rows =
                decode(
                        "id Int64",
                        schemas,
                        false,
                        List.of(),
                        new byte[] {0, 0, 1},
                        magic,
                        unknown,
                        trailing);
        assertThat(rows.errors)
                .containsExactly(
                        "a record of 3 bytes is too short for the Confluent header (magic byte 0"
                                + " and a 4-byte schema id)",
                        "not Confluent-framed: the first byte is 0x7b, not the magic byte 0",
                        "unknown schema id 42 (test schemas)",
                        "the datum ends at byte 1 of 3: the record was not written with schema id 1");
    }

    @Test
    void everyTruncationIsARecordErrorNamingTheField() {
        Schema s =
                record(
                        """
                        {"name":"id","type":"long"},{"name":"name","type":"string"},
                        {"name":"tags","type":{"type":"array","items":"string"}},
                        {"name":"score","type":"double"},
                        {"name":"geo","type":["null",{"type":"record","name":"G","fields":[{"name":"cc","type":"string"}]}]}""");
        Schema geo = s.getField("geo").schema().getTypes().get(1);
        byte[] good =
                AvroBytes.raw(
                        s,
                        AvroBytes.record(
                                s,
                                values(
                                        "id",
                                        123456789L,
                                        "name",
                                        "hello",
                                        "tags",
                                        List.of("a", "bb"),
                                        "score",
                                        2.5,
                                        "geo",
                                        AvroBytes.record(geo, values("cc", "DE")))));
        MapSchemas schemas = new MapSchemas().with(1, s);
        for (int cut = 0; cut < good.length; cut++) {
            byte[] rec =
                    ByteBuffer.allocate(5 + cut).put((byte) 0).putInt(1).put(good, 0, cut).array();
            Rows rows =
                    decode(
                            "id Int64, name String, tags Array(String), score Float64, geo.cc String",
                            schemas,
                            false,
                            List.of(),
                            rec);
            assertThat(rows.block.rows()).as("cut at %d", cut).isZero();
            assertThat(rows.errors)
                    .as("cut at %d", cut)
                    .singleElement()
                    .asString()
                    .matches("field (id|name|tags|score|geo|geo\\.cc): .*")
                    .contains("the record ends inside the value");
        }
    }

    @Test
    void garbageNeverEscapesAsAnythingButARecordError() {
        Schema s =
                record(
                        """
                        {"name":"id","type":"long"},{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
                        {"name":"m","type":{"type":"map","values":{"type":"array","items":["null","int"]}}},
                        {"name":"u","type":["null","string","boolean"]},{"name":"f","type":"float"}""");
        MapSchemas schemas = new MapSchemas().with(1, s);
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        TableSchema table =
                DecodeFixture.table(
                        "id Int64, e String, m Map(String, Array(Nullable(Int32))), u Nullable(String), f Float32");
        DecodeSpec spec = confluent(false);
        TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), table);
        Decoder d = DecoderFactory.create(spec, List.of(), target, schemas);
        byte[][] records = new byte[2000][];
        for (int i = 0; i < records.length; i++) {
            byte[] r = new byte[5 + random.nextInt(40)];
            random.nextBytes(r);
            r[0] = 0;
            r[1] = 0;
            r[2] = 0;
            r[3] = 0;
            r[4] = 1;
            records[i] = r;
        }
        Rows rows = new Rows(target).decode(d, DecodeFixture.batch(records));
        assertThat(rows.errors.size() + rows.block.rows()).isEqualTo(records.length);
        assertThat(rows.errors)
                .allSatisfy(
                        e ->
                                assertThat(e)
                                        .matches(
                                                "(field \\w+|column \\w+ \\(.*\\)|the datum ends).*"));
        assertThat(rows.errors).anyMatch(e -> e.contains("malformed"));
    }

    @Test
    void rawRecordsWithASchemaFile() throws Exception {
        Schema s =
                record(
                        "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"tag\",\"type\":\"string\"}");
        java.nio.file.Path file = java.nio.file.Files.createTempFile("writer", ".avsc");
        try {
            java.nio.file.Files.writeString(file, s.toString());
            DecodeSpec spec = DecodeSpec.avro(new AvroSpec(AvroFraming.RAW, file, null), false);
            TargetColumns target =
                    DecoderFactory.targetColumns(
                            spec, List.of(), DecodeFixture.table("id Int64, tag String"));
            Rows rows =
                    new Rows(target)
                            .decode(
                                    DecoderFactory.create(spec, List.of(), target, null),
                                    DecodeFixture.batch(
                                            AvroBytes.raw(
                                                    s,
                                                    AvroBytes.record(
                                                            s, values("id", -1L, "tag", "x"))),
                                            AvroBytes.raw(
                                                    s,
                                                    AvroBytes.record(
                                                            s, values("id", 2L, "tag", "")))));
            noErrors(rows);
            assertThat(rows.value("id", 0)).isEqualTo(-1L);
            assertThat(rows.value("tag", 1)).isEqualTo("");
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void aBadSchemaFileIsAStartUpError() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("writer", ".avsc");
        try {
            java.nio.file.Files.writeString(file, "{\"type\":\"record\",\"name\":\"R\"}");
            assertThat(
                            org.assertj.core.api.Assertions.catchThrowable(
                                    () -> AvroSchemaFile.load(file)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("avro schema_file " + file + ": not a valid Avro schema");
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void checkSaysWhetherASchemaMapsOntoTheColumns() {
        DecodeSpec spec = confluent(false);
        TargetColumns target =
                DecoderFactory.targetColumns(spec, List.of(), DecodeFixture.table("id UInt64"));
        AvroDecoder d =
                (AvroDecoder) DecoderFactory.create(spec, List.of(), target, new MapSchemas());
        assertThat(d.problemWith(record("{\"name\":\"id\",\"type\":\"long\"}"), "s")).isNull();
        assertThat(
                        d.problemWith(
                                record(
                                        "{\"name\":\"id\",\"type\":\"long\"},"
                                                + "{\"name\":\"extra\",\"type\":\"string\"}"),
                                "subject s's latest schema (id 3)"))
                .isEqualTo(
                        "field extra: table db.t has no column extra (ignore_unknown skips such"
                                + " fields) (subject s's latest schema (id 3))");
    }

    @Test
    void arraysOfRecordsIntoNestedColumns() {
        Schema s =
                record(
                        """
                        {"name":"lines","type":{"type":"array","items":{"type":"record","name":"L","fields":[
                            {"name":"sku","type":"string"},{"name":"qty","type":"int"},{"name":"note","type":["null","string"]}]}}}""");
        Schema line = s.getField("lines").schema().getElementType();
        MapSchemas schemas = new MapSchemas().with(1, s);
        byte[] two =
                AvroBytes.framed(
                        1,
                        s,
                        AvroBytes.record(
                                s,
                                values(
                                        "lines",
                                        List.of(
                                                AvroBytes.record(
                                                        line,
                                                        values("sku", "a", "qty", 1, "note", null)),
                                                AvroBytes.record(
                                                        line,
                                                        values(
                                                                "sku", "b", "qty", 2, "note",
                                                                "n"))))));
        byte[] none = AvroBytes.framed(1, s, AvroBytes.record(s, values("lines", List.of())));
        Rows rows =
                decode(
                        "lines.sku Array(String), lines.qty Array(UInt32),"
                                + " lines.note Array(Nullable(String))",
                        schemas,
                        false,
                        List.of(),
                        two,
                        none);
        noErrors(rows);
        assertThat(rows.value("lines.sku", 0)).isEqualTo(List.of("a", "b"));
        assertThat(rows.value("lines.qty", 0)).isEqualTo(List.of(1L, 2L));
        assertThat(rows.value("lines.note", 0)).isEqualTo(Arrays.asList(null, "n"));
        assertThat(rows.value("lines.sku", 1)).isEqualTo(List.of());
        assertThat(rows.value("lines.note", 1)).isEqualTo(List.of());

        Rows missing =
                decode(
                        "lines.sku Array(String), lines.qty Array(UInt32)",
                        schemas,
                        false,
                        List.of(),
                        two);
        assertThat(missing.errors)
                .singleElement()
                .asString()
                .startsWith("field lines.note: table db.t has no column lines.note");
        Rows ignored =
                decode(
                        "lines.sku Array(String), lines.qty Array(UInt32)",
                        schemas,
                        true,
                        List.of(),
                        two);
        noErrors(ignored);
        assertThat(ignored.value("lines.qty", 0)).isEqualTo(List.of(1L, 2L));
        Rows notArrays = decode("lines.sku String", schemas, true, List.of(), two);
        assertThat(notArrays.errors)
                .singleElement()
                .asString()
                .contains("field lines.sku: a field of an array of records needs an Array column");
    }
}
