package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.kafka.GroupCheckpoints;
import dev.sluice.kafka.it.TestKafka;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * Two consumer groups reading one topic of json700 events at once, each into a table of the
 * cluster, run by the same schedule — what the kill and storm ITs share:
 *
 * <ul>
 *   <li>group {@code rmt} writes to a ReplicatedMergeTree table of the {@code
 *       one_shard_two_replicas} layout: one shard of both servers, an instance in an even slot
 *       listing server 1 first and one in an odd slot server 2 (writer {@code k} starts on replica
 *       {@code k mod 2}, so every instance writes to both). On 18.16 a replica drops a block
 *       identical to one already written (by either replica): replays that re-create the batches
 *       exactly — same records, same boundaries — leave no duplicate;
 *   <li>group {@code mt} writes to a MergeTree table on server 1, which keeps every copy, with the
 *       run number in a column; the group's commits are read right after each kill ({@link
 *       ReplayAccounting}).
 * </ul>
 *
 * An action hits the instances of both groups: a {@link Pair}.
 */
final class MirroredGroups implements AutoCloseable {
    static final int PARTITIONS = 8;

    /** The instance of each group an action hits. */
    record Pair(GroupInstances.Instance rmt, GroupInstances.Instance mt) {}

    private final StreamIt it;
    final String topic;
    final String rmtGroup = StreamIt.group("sluice-rmt");
    final String mtGroup = StreamIt.group("sluice-mt");
    final StreamTable rmt;
    final StreamTable rmt2;
    final StreamTable mt;
    final StreamProducer producer;
    final GroupInstances rmtRuns;
    final GroupInstances mtRuns;
    private final Admin admin;
    private final List<ReplayAccounting.Kill> mtKills = new ArrayList<>();
    private final List<ReplayAccounting.Outage> outages = new ArrayList<>();

    MirroredGroups(StreamIt it, Path dir, String name, long seed) {
        this.it = it;
        TestKafka.require();
        TestCluster.require();
        topic = TestKafka.newTopic(name, PARTITIONS);
        for (String g : List.of(rmtGroup, mtGroup)) {
            // A killed member's partitions move after 8 s (the broker's default is 10 s): time
            // enough to read the group's commits after a kill on a loaded machine.
            TestKafka.setGroupConfigs(
                    g,
                    Map.of(
                            "consumer.session.timeout.ms", "8000",
                            "consumer.heartbeat.interval.ms", "1000"));
        }
        rmt = new StreamTable(StreamIt.table(name + "_rmt"), 1);
        rmt2 = new StreamTable(rmt.name, 2);
        TestCluster.createOnCluster(
                TestCluster.ONE_SHARD_TWO_REPLICAS,
                rmt.name,
                "("
                        + Json700.COLUMNS
                        + ") "
                        + TestCluster.replicatedEngine(rmt.name, "(part, off)")
                        // Every block of the test stays deduplicable: a replay comes seconds after
                        // the original, but many other blocks may be written meanwhile.
                        + " SETTINGS replicated_deduplication_window = 100000");
        mt = new StreamTable(StreamIt.table(name + "_mt"), 1);
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + mt.name
                        + " ("
                        + Json700.COLUMNS
                        + ", run UInt32) ENGINE = MergeTree ORDER BY (part, off)");
        it.log("topic %s, tables %s (replicated) and %s", topic, rmt.name, mt.name);
        StreamPipelines yaml = new StreamPipelines(dir, topic);
        producer = new StreamProducer(topic, PARTITIONS, new Json700(seed));
        rmtRuns =
                new GroupInstances(
                        "rmt",
                        dir,
                        (slot, port) ->
                                yaml.replicated(name + "-rmt", rmtGroup, rmt.name, slot, port),
                        it::say);
        mtRuns =
                new GroupInstances(
                        "mt",
                        dir,
                        (slot, port) -> yaml.mergeTree(name + "-mt", mtGroup, mt.name, slot, port),
                        it::say);
        admin = TestKafka.admin();
    }

    Pair start(int slot) throws IOException {
        return new Pair(rmtRuns.start(slot), mtRuns.start(slot));
    }

    /** Fails when a run ended by itself. */
    void assertRunning() throws IOException {
        rmtRuns.assertRunning();
        mtRuns.assertRunning();
    }

    /** Messages in the table that has fewer. */
    long progress() {
        return Math.min(rmt.distinct(), mt.distinct());
    }

    /**
     * {@code kill -9} of both instances, then the groups' commits — valid as the killed run's last
     * word only while its members are still in the group (until their session expires no other
     * member owns their partitions): checked after the read, by their {@code client.rack}.
     */
    void kill(Pair p) throws InterruptedException {
        rmtRuns.scrapeNow(p.rmt()); // what it saw, up to its end
        mtRuns.scrapeNow(p.mt());
        String victim = "run-" + p.mt().run;
        rmtRuns.kill(p.rmt());
        mtRuns.kill(p.mt());
        long killedAt = System.nanoTime();
        Map<Integer, GroupCheckpoints.Committed> mtCommitted =
                StreamIt.committed(admin, mtGroup, topic);
        double readAfter = (System.nanoTime() - killedAt) / 1e9;
        Map<String, List<Integer>> members = StreamIt.membersByRun(admin, mtGroup, topic);
        // A run that had not joined yet has no members and nothing in flight: nothing to check.
        boolean joined = p.mt().assignedAfter >= 0;
        assertThat(!joined || members.containsKey(victim))
                .as(
                        "mt %s's members are still in the group after its commits were read"
                                + " (%.1f s after the kill; members now %s): else another member"
                                + " may have committed its partitions first",
                        p.mt(), readAfter, members)
                .isTrue();
        mtKills.add(new ReplayAccounting.Kill(p.mt(), killedAt, mtRuns.all().size(), mtCommitted));
        it.log(
                "kill -9 of rmt %s and mt %s after %.1f s; mt members %s; mt committed %s;"
                        + " rmt committed %s",
                p.rmt(),
                p.mt(),
                p.mt().process.elapsed(),
                members,
                StreamIt.describe(mtCommitted),
                StreamIt.describe(StreamIt.committed(admin, rmtGroup, topic)));
    }

    /** True when both instances own partitions (have joined their groups). */
    boolean assigned(Pair p) throws InterruptedException {
        rmtRuns.scrapeNow(p.rmt());
        mtRuns.scrapeNow(p.mt());
        return p.rmt().assignedAfter >= 0 && p.mt().assignedAfter >= 0;
    }

    /** True when both instances have started (a SIGTERM before would just end the JVM, 143). */
    boolean started(Pair p) throws InterruptedException {
        return (p.rmt().startedAfter >= 0 || rmtRuns.scrapeNow(p.rmt()) != null)
                && (p.mt().startedAfter >= 0 || mtRuns.scrapeNow(p.mt()) != null);
    }

    /** SIGTERM to both (once started: before, the JVM would just exit 143); does not wait. */
    void terminate(Pair p) throws IOException, InterruptedException {
        rmtRuns.awaitStarted(p.rmt(), Duration.ofMinutes(2));
        mtRuns.awaitStarted(p.mt(), Duration.ofMinutes(2));
        rmtRuns.terminate(p.rmt());
        mtRuns.terminate(p.mt());
        it.log("SIGTERM to rmt %s and mt %s", p.rmt(), p.mt());
    }

    /** Waits until every live run owns partitions (start-up and the first assignment are done). */
    void awaitAssigned() throws IOException, InterruptedException {
        rmtRuns.awaitAssigned(Duration.ofMinutes(2));
        mtRuns.awaitAssigned(Duration.ofMinutes(2));
    }

    /** Waits until every live run has started. */
    void awaitStarted() throws IOException, InterruptedException {
        rmtRuns.awaitStarted(Duration.ofMinutes(2));
        mtRuns.awaitStarted(Duration.ofMinutes(2));
    }

    /** A clean restart of the broker. */
    void restartBroker() {
        it.log("restarting the Kafka broker");
        TestKafka.restart();
        it.log("the Kafka broker is back");
    }

    /**
     * A clean restart of cluster server 1 — the MergeTree table's server and a replica of the other
     * — once every run has started ({@code sluice run} stops when its target does not answer at
     * start-up).
     */
    void restartServer1() throws IOException, InterruptedException {
        awaitStarted();
        long from = System.nanoTime();
        it.log("restarting ClickHouse server 1");
        TestCluster.restart(1);
        outages.add(new ReplayAccounting.Outage("server 1 restart", from, System.nanoTime()));
        it.log("ClickHouse server 1 is back");
    }

    /**
     * After the producer finished: waits until both groups wrote and committed everything, stops
     * every run with SIGTERM (each must exit 0: drained, committed), and checks both tables — every
     * event in each, no duplicate on either replica of the replicated table, every duplicate of the
     * MergeTree table explained.
     */
    ReplayAccounting.Result finishAndCheck(Duration timeout) throws Exception {
        Map<Integer, Long> ends = StreamIt.ends(topic);
        it.awaitDone(
                admin,
                topic,
                ends,
                timeout,
                new StreamIt.Target(rmtGroup, rmtRuns, rmt),
                new StreamIt.Target(mtGroup, mtRuns, mt));
        awaitStarted();
        for (GroupInstances g : List.of(rmtRuns, mtRuns)) {
            for (GroupInstances.Instance i : g.live()) {
                g.terminate(i);
            }
        }
        for (GroupInstances g : List.of(rmtRuns, mtRuns)) {
            for (GroupInstances.Instance i : g.all()) {
                if ("SIGTERM".equals(i.end)) {
                    g.awaitExit(i, Duration.ofSeconds(60));
                }
            }
        }
        TestCluster.syncReplica(1, rmt.name);
        TestCluster.syncReplica(2, rmt.name);
        Json700.Sums sums = producer.sums();
        assertThat(rmt.checkEveryMessage(ends, sums, "replicated, server 1"))
                .as("duplicates in the ReplicatedMergeTree table (server 1)")
                .isZero();
        assertThat(rmt2.checkEveryMessage(ends, sums, "replicated, server 2"))
                .as("duplicates in the ReplicatedMergeTree table (server 2)")
                .isZero();
        long duplicates = mt.checkEveryMessage(ends, sums, "MergeTree");
        ReplayAccounting.Result r =
                new ReplayAccounting(mt, mtRuns, PARTITIONS, mtKills, outages).check();
        assertThat(r.duplicates()).isEqualTo(duplicates);
        double rebalances = 0;
        for (GroupInstances g : List.of(rmtRuns, mtRuns)) {
            for (GroupInstances.Instance i : g.all()) {
                rebalances += g.metric(i, "etl_kafka_rebalance_events_total");
            }
        }
        it.log(
                "%d runs per group, %d kills; %.0f rebalance callbacks seen; MergeTree: %,d"
                        + " duplicates (%,d after kills, %,d retries, %,d releases);"
                        + " ReplicatedMergeTree: none",
                mtRuns.all().size(),
                mtKills.size(),
                rebalances,
                duplicates,
                r.byKills(),
                r.byRetries(),
                r.byReleases());
        return r;
    }

    /** Drops what the test made (kept when it fails, to look into). */
    void dropAll() {
        TestCluster.dropOnCluster(TestCluster.ONE_SHARD_TWO_REPLICAS, rmt.name);
        TestCluster.execute(1, "DROP TABLE " + mt.name);
        TestKafka.deleteTopic(topic);
    }

    @Override
    public void close() {
        rmtRuns.close();
        mtRuns.close();
        producer.close();
        admin.close();
    }
}
