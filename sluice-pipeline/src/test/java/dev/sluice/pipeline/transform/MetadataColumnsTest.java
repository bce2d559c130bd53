package dev.sluice.pipeline.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.FieldRules;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.BatchBuilder;
import dev.sluice.pipeline.sink.PooledBlock;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.RecordMetadata;
import dev.sluice.pipeline.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetadataColumnsTest {
    private static final TableSchema TABLE =
            Tables.table(
                    "t",
                    "_key String",
                    "ts DateTime64(3, 'UTC')",
                    "_topic LowCardinality(String)",
                    "_partition UInt32",
                    "_offset UInt64",
                    "trace Nullable(String)",
                    "tenant UInt32 DEFAULT 7",
                    "payload String");

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Two records: one with key and headers, one with neither. */
    private static PolledRecords batch() {
        PolledRecords rb = new PolledRecords();
        rb.partition = "events/3";
        rb.meta = new RecordMetadata();
        rb.meta.topic = "events";
        rb.meta.partition = 3;
        rb.meta.record(0, utf8("user-1"), 1_764_741_600_123L);
        rb.meta.header(0, "trace_id", utf8("t-1"));
        rb.meta.header(0, "tenant", utf8("41"));
        rb.meta.header(0, "tenant", utf8("42")); // a repeated name: the last wins
        rb.add(0, 0, 1_000, 0);
        rb.meta.record(1, null, 1_764_741_601_000L);
        rb.add(0, 0, 1_001, 0);
        return rb;
    }

    @Test
    void fieldsFeedColumnsOfTheirNameOrRenamedToThem() {
        FieldRules rules =
                new FieldRules(
                        Map.of("_header.trace_id", "trace", "_header.tenant", "tenant"), Set.of());
        Map<String, String> fed = MetadataColumns.columns(TABLE, rules);
        assertThat(fed)
                .containsExactly(
                        Map.entry("_key", "_key"),
                        Map.entry("_topic", "_topic"),
                        Map.entry("_partition", "_partition"),
                        Map.entry("_offset", "_offset"),
                        Map.entry("trace", "_header.trace_id"),
                        Map.entry("tenant", "_header.tenant"));
        assertThat(MetadataColumns.isField("_header.")).isFalse();
        assertThat(MetadataColumns.isField("payload")).isFalse();
    }

    @Test
    void valuesAreConvertedIntoTheColumnsTypesAndAbsentOnesGetNullOrTheDefault() throws Exception {
        Map<String, String> fed =
                Map.of(
                        "_key", "_key",
                        "ts", "_timestamp",
                        "_topic", "_topic",
                        "_partition", "_partition",
                        "_offset", "_offset",
                        "trace", "_header.trace_id",
                        "tenant", "_header.tenant");
        TargetColumns target = new TargetColumns(TABLE, TABLE.insertableColumns());
        MetadataColumns t = MetadataColumns.of(fed, target);
        BatchBuilder rows =
                new BatchBuilder(
                        "events/3",
                        new PooledBlock(target.newBlock(), new AbsentRows(target.size())));
        PolledRecords rb = batch();
        for (int i = 0; i < 2; i++) {
            rows.beginRow();
            assertThat(t.apply(rows, rb, i)).isTrue();
            rows.block().column(7).appendString("p" + i); // the decoder's own column
            rows.commitRow(rb.position[i]);
        }

        var b = rows.block();
        assertThat(b.column(0).getString(0)).isEqualTo("user-1");
        assertThat(b.column(0).getString(1)).isEmpty(); // no key: the String's default, absent
        assertThat(rows.absentRows().isAbsent(0, 1)).isTrue();
        assertThat(b.column(1).getLong(0)).isEqualTo(1_764_741_600_123L); // DateTime64(3) ticks
        assertThat(b.column(2).getString(1)).isEqualTo("events");
        assertThat(b.column(3).getLong(0)).isEqualTo(3);
        assertThat(b.column(4).getLong(1)).isEqualTo(1_001);
        assertThat(b.column(5).getString(0)).isEqualTo("t-1");
        assertThat(b.column(5).isNull(1)).isTrue(); // Nullable: NULL when the header is missing
        assertThat(b.column(6).getLong(0)).isEqualTo(42);
        assertThat(rows.absentRows().isAbsent(6, 1)).isTrue(); // the server's DEFAULT 7
    }

    @Test
    void aValueTheColumnRefusesIsARecordErrorNamingTheColumn() {
        TableSchema table = Tables.table("t", "_key UInt64");
        TargetColumns target = new TargetColumns(table, table.insertableColumns());
        MetadataColumns t = MetadataColumns.of(Map.of("_key", "_key"), target);
        BatchBuilder rows =
                new BatchBuilder(
                        "events/3",
                        new PooledBlock(target.newBlock(), new AbsentRows(target.size())));
        rows.beginRow();
        assertThatThrownBy(() -> t.apply(rows, batch(), 0))
                .isInstanceOf(RecordException.class)
                .hasMessageContaining("_key");
    }
}
