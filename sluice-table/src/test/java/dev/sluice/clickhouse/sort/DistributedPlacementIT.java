package dev.sluice.clickhouse.sort;

import static dev.sluice.clickhouse.it.ClusterRows.COLUMNS;
import static dev.sluice.clickhouse.it.ClusterRows.block;
import static dev.sluice.clickhouse.it.ClusterRows.insert;
import static dev.sluice.clickhouse.it.ClusterRows.readBack;
import static dev.sluice.clickhouse.it.ClusterRows.rows;
import static dev.sluice.clickhouse.it.TestCluster.TWO_SHARDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.clickhouse.it.ClusterRows.Row;
import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.clickhouse.types.TypeParser;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Where a Distributed table places rows, on the real cluster of {@code scripts/clickhouse cluster}:
 * by its sharding key, computed by Sluice's expression engine, over the shard weights of {@code
 * system.clusters} — the rule {@link ShardKey} follows.
 */
class DistributedPlacementIT {
    @BeforeAll
    static void cluster() {
        TestCluster.require();
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
}
