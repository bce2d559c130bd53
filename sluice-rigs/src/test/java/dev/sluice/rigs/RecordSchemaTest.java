package dev.sluice.rigs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every record carries the schema's fields; bad records are refused naming the place and field. */
class RecordSchemaTest {
    @TempDir Path dir;

    private static Map<String, Object> ok() {
        Map<String, Object> arm = TestRecords.arm("threads", 2, "format", "Native");
        return TestRecords.saturation(arm, arm, 1, 500_000, "sink").fields();
    }

    @Test
    void aRecordHasEveryFieldInSchemaOrder() {
        Map<String, Object> r = ok();
        RecordSchema.check(r, "here");
        assertThat(List.copyOf(r.keySet())).isEqualTo(RecordSchema.FIELDS);
        assertThat(r.get("arm_label")).isEqualTo("threads=2 format=Native");
        assertThat(((Map<?, ?>) r.get("machine")).keySet())
                .map(Object::toString)
                .contains("cores", "cpu_model", "memory_bytes", "load_average");
        assertThat((String) r.get("started_at")).endsWith("Z");
        assertThat(r.get("data_seed")).isEqualTo(7L);
        // 2 cores / ((10 + 13) CPU-s / 7.5M rows) = 652,173.9 rows/s; 500,000 is 76.7% of it
        assertThat((Double) r.get("cpu_bound_rows_per_s"))
                .isCloseTo(652_173.9, org.assertj.core.data.Offset.offset(0.1));
        assertThat((Double) r.get("cpu_bound_fraction"))
                .isCloseTo(0.7667, org.assertj.core.data.Offset.offset(0.0001));
    }

    @Test
    void aMissingFieldIsNamedWithThePlace() {
        Map<String, Object> r = ok();
        r.remove("server_revision");
        assertThatThrownBy(() -> RecordSchema.check(r, "results.jsonl line 3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("results.jsonl line 3: missing field 'server_revision'");
    }

    @Test
    void aNullMeasurementNeedsAReason() {
        Map<String, Object> r = ok();
        r.put("server_cpu_s", null);
        assertThatThrownBy(() -> RecordSchema.check(r, "x"))
                .hasMessage("x: 'server_cpu_s' is null without a reason in null_reasons");
        BenchRecord b = TestRecords.saturation(TestRecords.arm("t", 1), Map.of(), 1, 1, "sink");
        b.absent("server_cpu_s", "the server is elsewhere");
        RecordSchema.check(b.fields(), "x");
    }

    @Test
    void unsupportedAndFailedRecordsSayWhy() {
        BenchRecord r =
                new BenchRecord("peers", TestRecords.arm("peer", "x"), 1, TestRecords.provenance());
        RecordSchema.check(r.unsupported("no HTTP URL").fields(), "x");
        Map<String, Object> f =
                new BenchRecord("peers", TestRecords.arm("peer", "x"), 1, TestRecords.provenance())
                        .fields();
        f.put("status", "failed");
        assertThatThrownBy(() -> RecordSchema.check(f, "x"))
                .hasMessage("x: a failed record needs a 'reason'");
        f.put("status", "broken");
        assertThatThrownBy(() -> RecordSchema.check(f, "x"))
                .hasMessageContaining("status 'broken' is not one of");
        f.put("status", "ok");
        f.put("rig", "speed");
        assertThatThrownBy(() -> RecordSchema.check(f, "x"))
                .hasMessageContaining("unknown rig 'speed'");
    }

    @Test
    void resultsAreAppendedAndReadBackAsWritten() throws Exception {
        Jsonl out = new Jsonl(dir.resolve(Jsonl.FILE_NAME));
        out.append(ok());
        out.append(
                new BenchRecord(
                                "formats",
                                TestRecords.arm("format", "TSKV"),
                                1,
                                TestRecords.provenance())
                        .unsupported("no encoder")
                        .fields());
        List<Map<String, Object>> back = Jsonl.read(out.file());
        assertThat(back).hasSize(2);
        assertThat(back.get(0).get("rows_per_s")).isEqualTo(500_000.0);
        assertThat(back.get(1).get("reason")).isEqualTo("no encoder");
        assertThat(Files.readAllLines(out.file())).hasSize(2);
    }

    @Test
    void aBadLineIsNamedByFileAndLine() throws Exception {
        Path f = dir.resolve("results.jsonl");
        Files.writeString(f, Jsonl.toJson(ok()) + "\n\n{\"rig\": \n");
        assertThatThrownBy(() -> Jsonl.read(f))
                .hasMessageStartingWith(f + " line 3: not a JSON object");
        Map<String, Object> r = ok();
        r.remove("jvm");
        Files.writeString(f, Jsonl.toJson(r) + "\n");
        assertThatThrownBy(() -> Jsonl.read(f)).hasMessage(f + " line 1: missing field 'jvm'");
    }

    @Test
    void appendRefusesARecordThatBreaksTheSchema() {
        Jsonl out = new Jsonl(dir.resolve(Jsonl.FILE_NAME));
        Map<String, Object> r = ok();
        r.put("rep", 0);
        assertThatThrownBy(() -> out.append(r)).hasMessageContaining("'rep' must be a number ≥ 1");
        assertThat(dir.resolve(Jsonl.FILE_NAME)).doesNotExist();
    }

    @Test
    void statisticsAreMedianRangeAndSpread() {
        Stats s = Stats.of(List.of(3.0, 1.0, 2.0, 10.0));
        assertThat(s.n()).isEqualTo(4);
        assertThat(s.median()).isEqualTo(2.5);
        assertThat(s.min()).isEqualTo(1.0);
        assertThat(s.max()).isEqualTo(10.0);
        assertThat(s.spread()).isEqualTo(3.6);
        assertThat(Stats.of(List.of(5))).isEqualTo(new Stats(1, 5, 5, 5, 0));
        assertThat(Stats.of(List.of())).isNull();
    }

    @Test
    void passwordsAreNotWrittenIntoSettings() {
        assertThat(BenchContext.redact("clickhouse://bob:secret@h:9000/db"))
                .isEqualTo("clickhouse://bob:***@h:9000/db");
        assertThat(BenchContext.redact("clickhouse://bob@h:9000/db"))
                .isEqualTo("clickhouse://bob@h:9000/db");
    }
}
