package dev.sluice.clickhouse.it;

import static dev.sluice.clickhouse.it.ClusterRows.COLUMNS;
import static dev.sluice.clickhouse.it.ClusterRows.block;
import static dev.sluice.clickhouse.it.ClusterRows.insert;
import static dev.sluice.clickhouse.it.ClusterRows.readBack;
import static dev.sluice.clickhouse.it.ClusterRows.rows;
import static dev.sluice.clickhouse.it.TestCluster.ONE_SHARD_TWO_REPLICAS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.it.ClusterRows.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The facts about ClickHouse replication that later work builds on, checked on the real cluster of
 * {@code scripts/clickhouse cluster} with Sluice's own Native client: replicas see each other's
 * inserts, a block inserted again is dropped (so a replay that rebuilds the same blocks is
 * exactly-once on ReplicatedMergeTree), the same rows in other blocks are not, and a replica killed
 * with SIGKILL or frozen with SIGSTOP catches up. (Where a Distributed table places rows is
 * sluice-table's DistributedPlacementIT: it is computed with the expression engine.)
 */
class ClusterIT {
    @BeforeAll
    static void cluster() {
        TestCluster.require();
    }

    private static String replicatedTable(String prefix) {
        String table = TestCluster.newTable(prefix);
        TestCluster.createOnCluster(
                ONE_SHARD_TWO_REPLICAS,
                table,
                COLUMNS + " " + TestCluster.replicatedEngine(table, "id"));
        return table;
    }

    @Test
    void anInsertOnOneReplicaIsReadBackFromTheOther() {
        String table = replicatedTable("repl");
        List<Row> rows = rows(0, 20_000);
        insert(1, table, rows);
        TestCluster.syncReplica(2, table);
        assertThat(readBack(2, table)).isEqualTo(rows);
        assertThat(readBack(1, table)).isEqualTo(rows);
        TestCluster.dropOnCluster(ONE_SHARD_TWO_REPLICAS, table);
    }

    @Test
    void theSameBlockAgainIsDroppedButTheSameRowsSplitDifferentlyAreNot() {
        String table = replicatedTable("dedup");
        List<Row> rows = rows(0, 6_000);
        Block block = block(rows);

        insert(1, table, block, Map.of());
        insert(1, table, block, Map.of()); // a replay of the same block on the same replica
        insert(2, table, block, Map.of()); // ... and on the other replica
        TestCluster.syncReplica(1, table);
        TestCluster.syncReplica(2, table);
        assertThat(readBack(1, table)).isEqualTo(rows);
        assertThat(readBack(2, table)).isEqualTo(rows);

        // The same rows in two other blocks are new blocks: stored again.
        insert(1, table, rows.subList(0, 2_500));
        insert(1, table, rows.subList(2_500, rows.size()));
        TestCluster.syncReplica(2, table);
        List<Row> twice = new ArrayList<>();
        for (Row r : rows) {
            twice.add(r);
            twice.add(r);
        }
        assertThat(readBack(2, table)).isEqualTo(twice);
        assertThat(readBack(1, table)).isEqualTo(twice);

        // insert_deduplicate=0 turns the check off: the first block once more is stored.
        insert(1, table, block, Map.of("insert_deduplicate", "0"));
        assertThat(TestCluster.single(1, "SELECT count() FROM " + table)).isEqualTo(18_000);
        TestCluster.dropOnCluster(ONE_SHARD_TWO_REPLICAS, table);
    }

    @Test
    void aKilledReplicaCatchesUpWhileTheOtherTakesTheInserts() {
        String table = replicatedTable("failover");
        insert(2, table, rows(0, 5_000));
        TestCluster.syncReplica(1, table);

        long oldPid = TestCluster.pid(2);
        TestCluster.kill(2);
        for (int from = 5_000; from < 10_000; from += 1_000) {
            insert(1, table, rows(from, from + 1_000));
        }
        TestCluster.start();
        assertThat(TestCluster.pid(2)).isNotEqualTo(oldPid);
        insert(2, table, rows(10_000, 12_000)); // writable again right after the restart

        TestCluster.syncReplica(2, table);
        TestCluster.syncReplica(1, table);
        List<Row> all = rows(0, 12_000);
        assertThat(readBack(2, table)).isEqualTo(all);
        assertThat(readBack(1, table)).isEqualTo(all);
        TestCluster.dropOnCluster(ONE_SHARD_TWO_REPLICAS, table);
    }

    @Test
    void aReplicaFrozenLongerThanItsSessionCatchesUpAfterSigcont() {
        String table = replicatedTable("frozen");
        insert(1, table, rows(0, 2_000));
        TestCluster.syncReplica(2, table);

        TestCluster.pause(2);
        try {
            insert(1, table, rows(2_000, 4_000));
            // outlast the ZooKeeper session: the frozen server must open a new one
            Signals.sleep(TestCluster.sessionTimeout().toMillis() + 1_000);
            insert(1, table, rows(4_000, 6_000));
        } finally {
            TestCluster.resume(2);
        }
        insert(2, table, rows(6_000, 7_000));
        TestCluster.syncReplica(2, table);
        TestCluster.syncReplica(1, table);
        List<Row> all = rows(0, 7_000);
        assertThat(readBack(2, table)).isEqualTo(all);
        assertThat(readBack(1, table)).isEqualTo(all);
        TestCluster.dropOnCluster(ONE_SHARD_TWO_REPLICAS, table);
    }
}
