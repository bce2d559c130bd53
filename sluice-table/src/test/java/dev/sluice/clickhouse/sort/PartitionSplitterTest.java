package dev.sluice.clickhouse.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Splitting by partition: one block per key value, first-appearance order, rows kept in order. */
class PartitionSplitterTest {

    private static TableSchema partitioned(String partitionBy) {
        TableSchema t = PresorterTest.table("seq");
        return new TableSchema("db", "t", t.columns(), "MergeTree", "seq", partitionBy);
    }

    @Test
    void groupsRowsByPartitionInFirstAppearanceOrder() {
        Block b = PresorterTest.rows(new Random(3), 5000);
        PartitionSplitter splitter =
                PartitionSplitter.of(
                        partitioned("(i32 % 2, s)"), PresorterTest.names(b), ZoneOffset.UTC);
        assertThat(splitter.supported()).isTrue();
        List<Block> parts = splitter.split(b, 0);

        // The oracle: rows grouped by (i32 % 2, s) in order of first appearance.
        Map<String, List<Long>> expected = new LinkedHashMap<>();
        for (int r = 0; r < b.rows(); r++) {
            String key = (b.column("i32").getLong(r) % 2) + "|" + b.column("s").getString(r);
            expected.computeIfAbsent(key, k -> new ArrayList<>()).add(b.column("seq").getLong(r));
        }
        assertThat(parts).hasSize(expected.size());
        assertThat(splitter.partitions()).isEqualTo(expected.size());
        int i = 0;
        for (List<Long> rows : expected.values()) {
            Block part = parts.get(i++);
            List<Long> seqs = new ArrayList<>();
            for (int r = 0; r < part.rows(); r++) {
                seqs.add(part.column("seq").getLong(r));
            }
            assertThat(seqs).isEqualTo(rows);
        }
    }

    @Test
    void floatsGroupNanWithNanAndMinusZeroWithZero() {
        Block b = PresorterTest.rows(new Random(4), 2000);
        List<Block> parts =
                PartitionSplitter.of(partitioned("f"), PresorterTest.names(b), ZoneOffset.UTC)
                        .split(b, 0);
        assertThat(parts).hasSize(5); // 0 (and -0), NaN, -1, 1, -inf
        int total = 0;
        for (Block p : parts) {
            total += p.rows();
        }
        assertThat(total).isEqualTo(2000);
    }

    @Test
    void oneBlockWhenThereIsOnePartitionOrNoKey() {
        Block b = PresorterTest.rows(new Random(5), 100);
        assertThat(
                        PartitionSplitter.of(
                                        partitioned("toYear(toDate('2020-01-01'))"),
                                        PresorterTest.names(b),
                                        ZoneOffset.UTC)
                                .split(b, 0))
                .containsExactly(b);
        PartitionSplitter none =
                PartitionSplitter.of(partitioned(""), PresorterTest.names(b), ZoneOffset.UTC);
        assertThat(none.supported()).isFalse();
        assertThat(none.unsupportedReason()).contains("not partitioned");
    }
}
