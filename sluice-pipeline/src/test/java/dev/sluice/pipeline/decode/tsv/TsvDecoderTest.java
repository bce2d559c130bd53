package dev.sluice.pipeline.decode.tsv;

import static dev.sluice.pipeline.decode.DecodeFixture.decode;
import static dev.sluice.pipeline.decode.DecodeFixture.spec;
import static dev.sluice.pipeline.decode.DecodeFixture.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TsvDecoderTest {
    private static final String EVENTS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";

    @Test
    void readsFieldsInTableOrder() {
        Rows r =
                decode(
                        EVENTS,
                        spec(Format.TSV),
                        "2024-01-01 00:00:00\t7\tclick\t18446744073709551615\t{\"a\":1}",
                        "2024-01-01 00:00:01\t0\t\t0\t");
        assertThat(r.errors).isEmpty();
        assertThat(r.block.rows()).isEqualTo(2);
        assertThat(r.value("ts", 0)).isEqualTo(1704067200L);
        assertThat(r.value("tenant", 0)).isEqualTo(7L);
        assertThat(r.value("kind", 0)).isEqualTo("click");
        assertThat(r.value("id", 0).toString()).isEqualTo("18446744073709551615");
        assertThat(r.value("payload", 0)).isEqualTo("{\"a\":1}");
        assertThat(r.value("kind", 1)).isEqualTo("");
    }

    @Test
    void unescapesClickHouseEscapes() {
        Rows r =
                decode(
                        "s String, n Nullable(String), a Array(String)",
                        spec(Format.TSV),
                        "tab\\there\\nnew\\\\\\0\\'\\x41\\q\\N!\t\\N\t['a\\'b','\\t','\\\\N']",
                        "\\\\N\t\\\\N\t[]");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("s", 0)).isEqualTo("tab\there\nnew\\\0'Aq!");
        assertThat(r.value("n", 0)).isNull();
        assertThat(r.value("a", 0)).isEqualTo(List.of("a'b", "\t", "\\N"));
        assertThat(r.value("s", 1)).isEqualTo("\\N");
        assertThat(r.value("n", 1)).isEqualTo("\\N");
        Rows lone = decode("s String", spec(Format.TSV), "end\\");
        assertThat(lone.value("s", 0)).as("a lone trailing backslash stays").isEqualTo("end\\");
        Rows tab = decode("s String, t String", spec(Format.TSV), "a\\\tb\tc");
        assertThat(tab.errors).isEmpty();
        assertThat(tab.value("s", 0))
                .as("an escaped raw tab is part of the value")
                .isEqualTo("a\tb");
        assertThat(tab.value("t", 0)).isEqualTo("c");
    }

    @Test
    void nullForANonNullableColumnIsItsDefaultAndAbsent() {
        Rows r = decode("a Int32, b String", spec(Format.TSV), "\\N\t\\N", "5\tx");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(0L);
        assertThat(r.isAbsent("a", 0)).isTrue();
        assertThat(r.isAbsent("b", 0)).isTrue();
        assertThat(r.isAbsent("a", 1)).isFalse();
    }

    @Test
    void badRecordsAreRejectedWithColumnAndReasonAndRolledBack() {
        Rows r =
                decode(
                        EVENTS,
                        spec(Format.TSV),
                        "2024-01-01 00:00:00\t-5\tclick\t1\tp",
                        "2024-01-01 00:00:00\t1\tclick\t1",
                        "2024-01-01 00:00:00\t1\tclick\t1\tp\textra",
                        "yesterday\t1\tclick\t1\tp",
                        "2024-01-01 00:00:00\t1\tclick\tx1\tp",
                        "2024-01-01 00:00:00\t4294967296\tclick\t1\tp",
                        "2024-01-01 00:00:00\t1\tclick\t1\tgood");
        assertThat(r.errors)
                .containsExactly(
                        "column tenant (UInt32): value -5 is out of range",
                        "expected 5 tab-separated fields, found 4",
                        "expected 5 tab-separated fields, found more",
                        "column ts (DateTime): 'yesterday' is not a DateTime (expected YYYY-MM-DD"
                                + " hh:mm:ss, ISO-8601 or a number)",
                        "column id (UInt64): 'x1' is not an integer",
                        "column tenant (UInt32): value 4294967296 is out of range");
        assertThat(r.block.rows()).isEqualTo(1);
        assertThat(r.value("payload", 0)).isEqualTo("good");
    }

    @Test
    void headerMapsFieldsByNamePerPartition() throws RecordException {
        var table = table("a UInt8, b String, c Date DEFAULT");
        var spec = spec(Format.TSV, List.of(), true, Map.of(), false);
        TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), table);
        Decoder d = DecoderFactory.create(spec, target);
        assertThat(d.expectsHeader()).isTrue();
        PolledRecords one = DecodeFixture.batch("b\ta", "x\t1");
        one.partition = "one.tsv";
        PolledRecords two = DecodeFixture.batch("a\tc", "2\t2024-01-01");
        two.partition = "two.tsv";
        d.header(one, 0);
        d.header(two, 0);
        Rows r = new Rows(target);
        one.start[0] = one.start[1];
        one.end[0] = one.end[1];
        one.count = 1;
        two.start[0] = two.start[1];
        two.end[0] = two.end[1];
        two.count = 1;
        r.decode(d, one).decode(d, two);
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(1L);
        assertThat(r.value("b", 0)).isEqualTo("x");
        assertThat(r.isAbsent("c", 0)).isTrue();
        assertThat(r.value("a", 1)).isEqualTo(2L);
        assertThat(r.isAbsent("b", 1)).isTrue();
        assertThat(r.value("c", 1)).isEqualTo(19723L);
    }

    @Test
    void headerNamingAnUnknownColumnIsAnErrorUnlessIgnored() {
        var strict = spec(Format.TSV, List.of(), true, Map.of(), false);
        Rows r = decode(table("a UInt8"), strict, List.of(), "a\tzz", "1\t2");
        assertThat(r.errors)
                .containsExactly(
                        "field zz: table db.t has no column zz (ignore_unknown skips such fields)");
        var lenient = spec(Format.TSV, List.of(), true, Map.of(), true);
        Rows ok = decode(table("a UInt8"), lenient, List.of(), "a\tzz", "1\t2");
        assertThat(ok.errors).isEmpty();
        assertThat(ok.value("a", 0)).isEqualTo(1L);
        Rows dup = decode(table("a UInt8"), lenient, List.of(), "a\ta", "1\t2");
        assertThat(dup.errors).singleElement().asString().contains("duplicate");
        Rows mat =
                decode(table("a UInt8, m UInt8 MATERIALIZED"), strict, List.of(), "a\tm", "1\t2");
        assertThat(mat.errors)
                .singleElement()
                .asString()
                .contains("MATERIALIZED and cannot be inserted");
    }

    @Test
    void columnsListChoosesAndOrdersTheFields() {
        var spec = spec(Format.TSV, List.of("b", "a"), false, Map.of(), false);
        Rows r = decode(table("a UInt8, b String, c UInt8"), spec, List.of(), "x\t1");
        assertThat(r.errors).isEmpty();
        assertThat(r.block.columnCount()).as("c is left to the server").isEqualTo(2);
        assertThat(r.value("a", 0)).isEqualTo(1L);
        assertThat(r.value("b", 0)).isEqualTo("x");
        assertThatThrownBy(
                        () ->
                                DecoderFactory.targetColumns(
                                        spec(
                                                Format.TSV,
                                                List.of("a", "nope"),
                                                false,
                                                Map.of(),
                                                false),
                                        List.of(),
                                        table("a UInt8")))
                .hasMessageContaining("has no column nope");
    }

    @Test
    void noHeaderSeenIsAnError() throws Exception {
        var spec = spec(Format.TSV, List.of(), true, Map.of(), false);
        TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), table("a UInt8"));
        Decoder d = DecoderFactory.create(spec, target);
        Rows r = new Rows(target).decode(d, DecodeFixture.batch("1"));
        assertThat(r.errors).containsExactly("no header line was read for p");
    }

    @Test
    void compositeAndNullableValues() {
        Rows r =
                decode(
                        "a Array(Nullable(Int32)), t Tuple(String, Array(UInt8)), n Nullable(UInt8),"
                                + " lc LowCardinality(String)",
                        spec(Format.TSV),
                        "[1,NULL,-3]\t('x\\'y',[1,2])\t\\N\tv",
                        "[]\t('',[])\t5\tv");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("a", 0)).isEqualTo(Arrays.asList(1L, null, -3L));
        assertThat(r.value("t", 0)).isEqualTo(List.of("x'y", List.of(1L, 2L)));
        assertThat(r.value("n", 0)).isNull();
        assertThat(r.value("n", 1)).isEqualTo(5L);
        assertThat(r.value("lc", 1)).isEqualTo("v");
    }
}
