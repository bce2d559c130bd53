package dev.sluice.clickhouse.it;

import static dev.sluice.clickhouse.it.TestCluster.ONE_SHARD_TWO_REPLICAS;
import static dev.sluice.clickhouse.it.TestCluster.TWO_SHARDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.clickhouse.types.TypeParser;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The facts about ClickHouse replication and sharding that later work builds on, checked on the
 * real cluster of {@code scripts/clickhouse cluster} with Sluice's own Native client: replicas see
 * each other's inserts, a block inserted again is dropped (so a replay that rebuilds the same
 * blocks is exactly-once on ReplicatedMergeTree), the same rows in other blocks are not, a
 * Distributed table places rows by its sharding key over the shard weights of {@code
 * system.clusters}, and a replica killed with SIGKILL or frozen with SIGSTOP catches up.
 */
class ClusterIT {
    private static final String COLUMNS = "(id UInt64, tenant UInt32, s String)";

    /** One row of the test tables. */
    record Row(long id, long tenant, String s) {}

    @BeforeAll
    static void cluster() {
        TestCluster.require();
    }

    private static Row row(long id) {
        return new Row(id, (id * 7919) % 1000, "row " + id + " " + "x".repeat((int) (id % 13)));
    }

    private static List<Row> rows(long from, long to) {
        List<Row> rows = new ArrayList<>();
        for (long id = from; id < to; id++) {
            rows.add(row(id));
        }
        return rows;
    }

    private static Block block(List<Row> rows) {
        Column id = ColumnFactory.create("id", "UInt64");
        Column tenant = ColumnFactory.create("tenant", "UInt32");
        Column s = ColumnFactory.create("s", "String");
        for (Row r : rows) {
            id.appendLong(r.id());
            tenant.appendLong(r.tenant());
            s.appendString(r.s());
        }
        return new Block(List.of(id, tenant, s), List.of("UInt64", "UInt32", "String"));
    }

    private static void insert(int server, String table, List<Row> rows) {
        insert(server, table, block(rows), Map.of());
    }

    private static void insert(
            int server, String table, Block block, Map<String, String> settings) {
        try (NativeConnection c = TestCluster.connect(server)) {
            assertThat(c.insert(table, block, settings, null).rows()).isEqualTo(block.rows());
        }
    }

    /** The table's rows on one server, by id. */
    private static List<Row> readBack(int server, String table) {
        List<Row> rows = new ArrayList<>();
        for (List<Object> r :
                TestCluster.query(server, "SELECT id, tenant, s FROM " + table + " ORDER BY id")) {
            rows.add(
                    new Row(
                            ((Number) r.get(0)).longValue(),
                            ((Number) r.get(1)).longValue(),
                            (String) r.get(2)));
        }
        return rows;
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

    /** A shard of a cluster as system.clusters lists it. */
    record Shard(int number, long weight, int port) {}

    private static List<Shard> shards(String cluster) {
        List<Shard> shards = new ArrayList<>();
        for (List<Object> r :
                TestCluster.query(
                        1,
                        "SELECT shard_num, shard_weight, port FROM system.clusters WHERE cluster"
                                + " = '"
                                + cluster
                                + "' ORDER BY shard_num, replica_num")) {
            shards.add(
                    new Shard(
                            ((Number) r.get(0)).intValue(),
                            ((Number) r.get(1)).longValue(),
                            ((Number) r.get(2)).intValue()));
        }
        return shards;
    }

    @Test
    void aDistributedTablePlacesRowsByItsShardingKeyOverTheShardWeights() throws Exception {
        List<Shard> shards = shards(TWO_SHARDS);
        assertThat(shards).extracting(Shard::number).containsExactly(1, 2);
        Map<Integer, Integer> serverOfShard = new HashMap<>();
        for (Shard shard : shards) {
            for (int n = 1; n <= 2; n++) {
                if (TestCluster.config(n).port() == shard.port()) {
                    serverOfShard.put(shard.number(), n);
                }
            }
        }
        assertThat(serverOfShard).containsOnlyKeys(1, 2);

        String local = TestCluster.newTable("shard_local");
        String dist = TestCluster.newTable("shard_dist");
        TestCluster.createOnCluster(
                TWO_SHARDS, local, COLUMNS + " " + TestCluster.shardedEngine(local, "id"));
        String localName = local.substring(local.indexOf('.') + 1);
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + dist
                        + " "
                        + COLUMNS
                        + " ENGINE = Distributed("
                        + TWO_SHARDS
                        + ", "
                        + TestCluster.DATABASE
                        + ", "
                        + localName
                        + ", intHash32(tenant))");

        List<Row> rows = rows(0, 30_000);
        Block block = block(rows);
        insert(1, dist, block, Map.of("insert_distributed_sync", "1"));

        // Where each row belongs, computed by Sluice's evaluator: the key modulo the total
        // weight picks a slot; shards own consecutive slots in shard order, as many as their
        // weight.
        CompiledExpression key =
                CompiledExpression.compile(
                        "intHash32(tenant)",
                        new Bindings(Bindings.zone("UTC"))
                                .column("tenant", TypeParser.parse("UInt32")));
        ValueVector hashes = key.evaluate(block, 0);
        long totalWeight = shards.stream().mapToLong(Shard::weight).sum();
        Map<Integer, List<Row>> expected = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            long slot = Long.remainderUnsigned(hashes.getLong(i), totalWeight);
            int shard = 0;
            long upTo = 0;
            for (Shard s : shards) {
                upTo += s.weight();
                if (slot < upTo) {
                    shard = s.number();
                    break;
                }
            }
            expected.computeIfAbsent(shard, k -> new ArrayList<>()).add(rows.get(i));
        }
        for (Shard s : shards) {
            List<Row> want = expected.getOrDefault(s.number(), Collections.emptyList());
            assertThat(want).as("rows computed for shard %d", s.number()).isNotEmpty();
            assertThat(readBack(serverOfShard.get(s.number()), local))
                    .as("rows on shard %d (weight %d)", s.number(), s.weight())
                    .isEqualTo(want);
        }
        assertThat(readBack(1, dist)).isEqualTo(rows);
        TestCluster.dropOnEach(dist);
        TestCluster.dropOnCluster(TWO_SHARDS, local);
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
