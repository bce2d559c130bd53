package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.kafka.it.TestKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replica failover: a {@code sluice run} consumer writes json700 events into a ReplicatedMergeTree
 * table through one shard of two replicas ({@code shards: [{replicas: [server1, server2]}]}, one
 * writer, so every INSERT goes to server 1 while it answers); server 1 is killed ({@code kill -9})
 * in the middle of an INSERT. The writer must go on with server 2 at once — nothing lost, and no
 * duplicate: an INSERT whose acknowledgement died with server 1 is retried on server 2, which drops
 * it if server 1 had committed the block (the replicas share the block ids in ZooKeeper). Once
 * server 1 is back and the replicas have caught up, both hold every event exactly once. (Not
 * before: an INSERT server 1 acknowledged just before it died may not have reached server 2 yet —
 * it is durable on server 1, and an acknowledgement means no more without {@code insert_quorum}.)
 */
class KafkaReplicaFailoverIT {
    private static final int PARTITIONS = 8;
    private static final long EVENTS = StreamIt.scale(30_000L, 200_000L);
    private static final long RATE = StreamIt.scale(2_000L, 5_000L);

    @TempDir Path dir;

    @Test
    void killingTheReplicaBeingWrittenToLosesAndDoublesNothing() {
        assertTimeoutPreemptively(
                StreamIt.scale(Duration.ofMinutes(3), Duration.ofMinutes(6)), this::failover);
    }

    private void failover() throws Exception {
        StreamIt it = new StreamIt("KafkaReplicaFailoverIT");
        Random random = new Random(it.seed());
        TestKafka.require();
        TestCluster.require();
        String topic = TestKafka.newTopic("failover", PARTITIONS);
        String group = StreamIt.group("sluice-failover");
        StreamTable s1 = new StreamTable(StreamIt.table("kafka_failover"), 1);
        StreamTable s2 = new StreamTable(s1.name, 2);
        TestCluster.createOnCluster(
                TestCluster.ONE_SHARD_TWO_REPLICAS,
                s1.name,
                "("
                        + Json700.COLUMNS
                        + ") "
                        + TestCluster.replicatedEngine(s1.name, "(part, off)"));
        StreamPipelines yaml = new StreamPipelines(dir, topic);
        try (StreamProducer producer =
                        new StreamProducer(topic, PARTITIONS, new Json700(random.nextLong()));
                GroupInstances runs =
                        new GroupInstances(
                                "failover",
                                dir,
                                (slot, port) ->
                                        yaml.config("failover", group, s1.name, slot, port)
                                                .replicas(1, 2)
                                                .inflightPerShard(1)
                                                .yaml(),
                                it::say);
                Admin admin = TestKafka.admin()) {
            GroupInstances.Instance run = runs.start(0);
            runs.awaitStarted(Duration.ofMinutes(2));
            producer.startAtRate(RATE, EVENTS);
            it.log("producing %,d events at %,d/s", EVENTS, RATE);
            long mark = (long) ((0.2 + 0.4 * random.nextDouble()) * EVENTS);
            while (s1.distinct() < mark) {
                runs.assertRunning();
                Thread.sleep(50);
            }
            // Kill it in the middle of an INSERT of ours when one is seen soon.
            boolean inInsert = false;
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!inInsert && System.nanoTime() < deadline) {
                inInsert =
                        s1.single(
                                        "SELECT count() FROM system.processes WHERE query LIKE"
                                                + " 'INSERT INTO "
                                                + s1.name
                                                + "%'")
                                > 0;
            }
            long onServer2 = s2.count();
            long onServer1 = s1.count();
            TestCluster.kill(1);
            long killedAt = System.nanoTime();
            it.log(
                    "kill -9 of server 1 %s; it held %,d rows, server 2 %,d",
                    inInsert ? "during an INSERT" : "(no INSERT seen running)",
                    onServer1,
                    onServer2);
            assertThat(onServer1).as("server 1 was being written to").isPositive();

            // Writes go on with server 2 while server 1 is dead: it holds more than server 1
            // could have passed on (what it held, plus the one INSERT that may have been running).
            long grown = s2.count();
            while (grown <= onServer1 + StreamPipelines.MAX_ROWS) {
                runs.assertRunning();
                Thread.sleep(100);
                grown = s2.count();
            }
            it.log(
                    "server 2 holds %,d rows %.1f s after the kill",
                    grown, (System.nanoTime() - killedAt) / 1e9);
            assertThat(producer.finish()).isEqualTo(EVENTS);
            Map<Integer, Long> ends = StreamIt.ends(topic);
            it.awaitCommitted(
                    admin,
                    topic,
                    group,
                    runs,
                    ends,
                    StreamIt.scale(Duration.ofMinutes(2), Duration.ofMinutes(4)));
            // Acknowledged by server 1 before it died and not yet fetched by server 2: on server 1
            // alone until it is back (an INSERT is durable on the replica that took it; quorum
            // inserts would wait for more).
            it.log(
                    "every message acknowledged; server 2 has %,d of %,d while server 1 is down",
                    s2.distinct(), EVENTS);
            double retries = runs.metric(run, "etl_sink_retries_total");
            it.log(
                    "everything is on server 2 while server 1 is down; %.0f retries, %.0f"
                            + " failed inserts",
                    retries, runs.metric(run, "etl_sink_errors_total"));
            assertThat(runs.scrapeNow(run)).isNotNull();
            assertThat(runs.metric(run, "etl_sink_retries_total"))
                    .as("retries after server 1 died")
                    .isPositive();
            runs.terminate(run);
            runs.awaitExit(run, Duration.ofSeconds(60));

            TestCluster.start();
            TestCluster.syncReplica(1, s1.name);
            TestCluster.syncReplica(2, s1.name);
            it.log("server 1 is back; both replicas caught up");
            assertThat(s2.checkEveryMessage(ends, producer.sums(), "server 2"))
                    .as("duplicates on server 2")
                    .isZero();
            assertThat(s1.checkEveryMessage(ends, producer.sums(), "server 1"))
                    .as("duplicates on server 1")
                    .isZero();
            System.out.print(runs.problems());
            TestCluster.dropOnCluster(TestCluster.ONE_SHARD_TWO_REPLICAS, s1.name);
            TestKafka.deleteTopic(topic);
        } finally {
            TestCluster.start(); // never leave server 1 down for the next test
        }
    }
}
