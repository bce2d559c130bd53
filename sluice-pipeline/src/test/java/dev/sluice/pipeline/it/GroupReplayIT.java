package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.runtime.PipelineStats;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.testing.TestDecoder;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.transform.Transform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch of several partitions (a group, as a Kafka consumer makes) written, the run "killed"
 * before it committed past it, and the replay done by owners that each lack a member — so none can
 * re-create the batch whole, and each sends its members alone under their own ranges' tokens, which
 * neither a ReplicatedMergeTree (it compares blocks) nor the query log's token look-up recognise.
 * Every row must be in the table exactly once, value by value (docs/adr/0011): each member looks
 * the group up on every replica of its shard first.
 *
 * <p>The consumer group's committed offsets are an in-memory store shared by the runs; the "kill"
 * is the store keeping nothing the first run commits after it recorded the group (as a process
 * killed between the group's acknowledgement and its next commit) — or, for the other outcome,
 * failing that commit, so the group is never sent. The second run is two pipelines, like two
 * instances: one owns partitions a and c, the other b.
 */
@Timeout(300)
class GroupReplayIT {
    private static final List<String> PARTITIONS = List.of("a", "b", "c");

    /** Records of each partition the first run reads: they make the group. */
    private static final long[] GROUP = {1_000, 700, 400};

    /** Records of each partition in all: the second run reads the rest too. */
    private static final long[] TOTAL = {1_500, 1_200, 900};

    private static final Duration WAIT = Duration.ofSeconds(120);

    private static long n(int partition, long k) {
        return partition * 1_000_000L + k;
    }

    private static String record(int partition, long k) {
        return n(partition, k) + ",p" + PARTITIONS.get(partition) + "-" + k;
    }

    @Test
    void aGroupWrittenToOneReplicaIsFoundFromTheOtherAndItsMembersAreNotSentAgain()
            throws Exception {
        String table = replicatedTable();
        // The first run writes through server 2 only; the second starts its writer on server 1,
        // whose query log knows nothing of the group: both replicas must be asked.
        Replay r =
                replay(
                        table,
                        List.of(TestCluster.url(2)),
                        List.of(TestCluster.url(1), TestCluster.url(2)),
                        true,
                        () -> TestCluster.single(2, "SELECT count() FROM " + table));
        assertReplicatedRowsExactlyOnce(table);
        assertThat(r.alreadyWritten()).isEqualTo(sum(GROUP));
        assertThat(r.possiblyDuplicated()).isZero();
        TestCluster.dropOnCluster(TestCluster.ONE_SHARD_TWO_REPLICAS, table);
    }

    @Test
    void aGroupNeverSentOnAReplicatedTableHasItsMembersSentAlone() throws Exception {
        String table = replicatedTable();
        Replay r =
                replay(
                        table,
                        List.of(TestCluster.url(2)),
                        List.of(TestCluster.url(1), TestCluster.url(2)),
                        false,
                        () -> TestCluster.single(2, "SELECT count() FROM " + table));
        assertReplicatedRowsExactlyOnce(table);
        assertThat(r.alreadyWritten()).isZero();
        assertThat(r.possiblyDuplicated()).isZero();
        TestCluster.dropOnCluster(TestCluster.ONE_SHARD_TWO_REPLICAS, table);
    }

    @Test
    void aGroupWrittenToAMergeTreeIsFoundInItsQueryLog() throws Exception {
        String table = mergeTreeTable();
        Replay r =
                replay(
                        table,
                        List.of(TestServer.url()),
                        List.of(TestServer.url()),
                        true,
                        () -> TestServer.single("SELECT count() FROM " + table));
        assertRowsExactlyOnce(serverRows(table));
        assertThat(r.alreadyWritten()).isEqualTo(sum(GROUP));
        TestServer.execute("DROP TABLE " + table);
    }

    @Test
    void aGroupWhoseMembersCarryDifferentRunsIsFoundByEachOwner() throws Exception {
        // As with Kafka: each partition keeps the run of the instance that first committed it, so
        // partition a's run is not b's and c's. The group's token has one run; every owner must
        // look the group up under it, not under its member's own.
        String table = mergeTreeTable();
        Replay r =
                replay(
                        table,
                        List.of(TestServer.url()),
                        List.of(TestServer.url()),
                        true,
                        "0a0a0a0a0a0a",
                        () -> TestServer.single("SELECT count() FROM " + table));
        assertRowsExactlyOnce(serverRows(table));
        assertThat(r.alreadyWritten()).isEqualTo(sum(GROUP));
        assertThat(r.possiblyDuplicated()).isZero();
        TestServer.execute("DROP TABLE " + table);
    }

    @Test
    void aGroupNeverSentToAMergeTreeHasItsMembersSentAlone() throws Exception {
        String table = mergeTreeTable();
        Replay r =
                replay(
                        table,
                        List.of(TestServer.url()),
                        List.of(TestServer.url()),
                        false,
                        () -> TestServer.single("SELECT count() FROM " + table));
        assertRowsExactlyOnce(serverRows(table));
        assertThat(r.alreadyWritten()).isZero();
        assertThat(r.possiblyDuplicated()).isZero();
        TestServer.execute("DROP TABLE " + table);
    }

    // --- the scenario ---------------------------------------------------------------------------

    /** What the second run's two pipelines said together. */
    private record Replay(long alreadyWritten, long possiblyDuplicated) {}

    private interface Count {
        long rows() throws Exception;
    }

    /**
     * Run 1 (one pipeline owning a, b and c) seals the group and is "killed" — after writing it
     * ({@code written}) or before sending it; run 2 (two pipelines: a and c, and b) reads every
     * partition to its end.
     */
    private static Replay replay(
            String table, List<String> first, List<String> second, boolean written, Count count)
            throws Exception {
        return replay(table, first, second, written, null, count);
    }

    /**
     * As above; with {@code runOfA}, partition a was committed earlier (nothing read) by another
     * instance, whose run it keeps: the group's members carry different runs.
     */
    private static Replay replay(
            String table,
            List<String> first,
            List<String> second,
            boolean written,
            String runOfA,
            Count count)
            throws Exception {
        GroupStore store = new GroupStore(written ? Crash.AFTER_RECORDING : Crash.AT_RECORDING);
        if (runOfA != null) {
            store.committed.put("a", new Checkpoint(-1, runOfA, List.of()));
        }
        Pipeline one =
                Pipeline.start(
                        spec(table, first),
                        factories(store, List.of(0, 1, 2), GROUP, false),
                        Clock.SYSTEM);
        if (written) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (one.stats().rowsWritten() < sum(GROUP)) {
                if (System.nanoTime() - deadline > 0) {
                    fail(
                            "the first run wrote "
                                    + one.stats().rowsWritten()
                                    + " rows, not the group");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            one.stop();
        }
        PipelineResult r1 = one.awaitCompletion();
        assertThat(r1.status())
                .as(r1.message())
                .isEqualTo(written ? PipelineResult.Status.STOPPED : PipelineResult.Status.FAILED);
        List<LedgerEntry> recorded = store.groupEntries();
        assertThat(recorded)
                .as("the first run recorded one batch of all three partitions")
                .extracting(LedgerEntry::partition)
                .containsExactly("a", "b", "c");
        for (int p = 0; p < 3; p++) {
            assertThat(recorded.get(p).first()).isZero();
            assertThat(recorded.get(p).last()).isEqualTo(GROUP[p] - 1);
        }
        assertThat(count.rows()).isEqualTo(written ? sum(GROUP) : 0);
        for (String p : PARTITIONS) {
            assertThat(store.committed(p).position())
                    .as("nothing committed past the group")
                    .isLessThanOrEqualTo(0);
        }

        store.revive();
        Pipeline ac =
                Pipeline.start(
                        spec(table, second),
                        factories(store, List.of(0, 2), TOTAL, true),
                        Clock.SYSTEM);
        Pipeline b =
                Pipeline.start(
                        spec(table, second),
                        factories(store, List.of(1), TOTAL, true),
                        Clock.SYSTEM);
        PipelineResult rac = ac.awaitCompletion();
        PipelineResult rb = b.awaitCompletion();
        assertThat(rac.status()).as(rac.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(rb.status()).as(rb.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        for (int p = 0; p < 3; p++) {
            assertThat(store.committed(PARTITIONS.get(p)).position()).isEqualTo(TOTAL[p]);
        }
        PipelineStats.Delivery dac = rac.stats().delivery();
        PipelineStats.Delivery db = rb.stats().delivery();
        assertThat(rac.stats().rowsWritten() + rb.stats().rowsWritten())
                .isEqualTo(sum(TOTAL) - (written ? sum(GROUP) : 0));
        return new Replay(
                dac.rowsAlreadyWritten() + db.rowsAlreadyWritten(),
                dac.rowsPossiblyDuplicated() + db.rowsPossiblyDuplicated());
    }

    private static long sum(long[] counts) {
        long s = 0;
        for (long c : counts) {
            s += c;
        }
        return s;
    }

    private static String everyRow(String table) {
        return "SELECT n, s FROM " + table + " ORDER BY n, s";
    }

    private static List<List<Object>> serverRows(String table) {
        try (var c = TestServer.connect()) {
            return c.queryRows(everyRow(table));
        }
    }

    private static void assertReplicatedRowsExactlyOnce(String table) {
        for (int server = 1; server <= 2; server++) {
            TestCluster.syncReplica(server, table);
            assertRowsExactlyOnce(TestCluster.query(server, everyRow(table)));
        }
    }

    /** Every record of every partition, once, with its own values. */
    private static void assertRowsExactlyOnce(List<List<Object>> rows) {
        List<String> expected = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            for (long k = 0; k < TOTAL[p]; k++) {
                expected.add(record(p, k));
            }
        }
        List<String> actual = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            actual.add(((Number) row.get(0)).longValue() + "," + row.get(1));
        }
        assertThat(actual).hasSize(expected.size()).containsExactlyElementsOf(expected);
    }

    private static String replicatedTable() {
        String table = TestCluster.newTable("group_replay_rmt");
        TestCluster.createOnCluster(
                TestCluster.ONE_SHARD_TWO_REPLICAS,
                table,
                "(n UInt64, s String) " + TestCluster.replicatedEngine(table, "n"));
        return table;
    }

    private static String mergeTreeTable() {
        String table = TestServer.newTable("group_replay_mt");
        TestServer.execute(
                "CREATE TABLE " + table + " (n UInt64, s String) ENGINE = MergeTree ORDER BY n");
        return table;
    }

    private static PipelineSpec spec(String table, List<String> replicas) {
        return new PipelineSpec(
                "it",
                1,
                new PipelineSpec.StdinSource(1 << 20),
                new PipelineSpec.DecodeSpec(
                        PipelineSpec.Format.CSV, List.of(), false, Map.of(), false, ','),
                List.of(),
                new PipelineSpec.SinkSpec(
                        List.of(new ShardSpec(replicas, 1)),
                        table,
                        // A long linger: the first run's records of all three partitions are read
                        // long before it seals them, as one batch.
                        new PipelineSpec.BatchSpec(100_000, 64 << 20, Duration.ofSeconds(2)),
                        2,
                        "lz4",
                        false,
                        Map.of(),
                        new PipelineSpec.RetrySpec(
                                Duration.ofMillis(20), Duration.ofMillis(500), 2.0, 0.2, 0)),
                new PipelineSpec.ErrorsSpec(ErrorPolicy.FAIL, null, -1),
                new PipelineSpec.BackpressureSpec(0, 0.8, 0.5),
                new PipelineSpec.CheckpointSpec(Duration.ofMillis(500), null),
                new PipelineSpec.AdminSpec(null));
    }

    private static Factories factories(
            GroupStore store, List<Integer> owned, long[] counts, boolean end) {
        return new Factories() {
            @Override
            public Source source(int reader, int readers, LocalCheckpoints checkpoints) {
                return new GroupSource(store, owned, counts, end);
            }

            @Override
            public Decoder decoder(TargetColumns columns) {
                return new TestDecoder(columns, List.of("n", "s"));
            }

            @Override
            public List<Transform> transforms(TargetColumns columns) {
                return List.of();
            }

            @Override
            public DeadLetters deadLetters() {
                throw new UnsupportedOperationException();
            }
        };
    }

    // --- a consumer group's committed offsets, and its members --------------------------------

    private enum Crash {
        /** The process dies once the group is recorded and sent: nothing later is committed. */
        AFTER_RECORDING,
        /** The process dies while the group is recorded: it is never sent. */
        AT_RECORDING
    }

    /** What the broker keeps for a consumer group: each partition's last committed checkpoint. */
    private static final class GroupStore {
        private final Map<String, Checkpoint> committed = new ConcurrentHashMap<>();
        private Crash crash;
        private boolean dead;

        GroupStore(Crash crash) {
            this.crash = crash;
        }

        synchronized void commit(Map<String, Checkpoint> checkpoints) throws IOException {
            if (dead) {
                return; // the process is gone: nothing it does reaches the broker
            }
            committed.putAll(checkpoints);
            if (crash != null && recordsGroup(checkpoints)) {
                dead = true;
                if (crash == Crash.AT_RECORDING) {
                    throw new IOException("killed while committing");
                }
            }
        }

        private static boolean recordsGroup(Map<String, Checkpoint> checkpoints) {
            for (Checkpoint c : checkpoints.values()) {
                for (LedgerEntry e : c.inFlight()) {
                    if (e.group() != null && e.members() == PARTITIONS.size()) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** The next run: a new process commits again. */
        synchronized void revive() {
            crash = null;
            dead = false;
        }

        Checkpoint committed(String partition) {
            return committed.getOrDefault(partition, Checkpoint.NONE);
        }

        /** The recorded entries of batches of several partitions, in partition order. */
        List<LedgerEntry> groupEntries() {
            List<LedgerEntry> out = new ArrayList<>();
            for (String p : PARTITIONS) {
                for (LedgerEntry e : committed(p).inFlight()) {
                    if (e.group() != null) {
                        out.add(e);
                    }
                }
            }
            return out;
        }
    }

    /**
     * A member of the group: owns some partitions, starts each at its committed checkpoint, reads
     * them side by side (like Kafka) — up to {@code counts} records each, then waits for more (none
     * come) or, with {@code end}, ends. Positions are record numbers.
     */
    private static final class GroupSource implements Source {
        private final GroupStore store;
        private final List<Integer> owned;
        private final long[] counts;
        private final boolean end;
        private final long[] next = new long[PARTITIONS.size()];
        private final boolean[] ended = new boolean[PARTITIONS.size()];
        private int turn;

        GroupSource(GroupStore store, List<Integer> owned, long[] counts, boolean end) {
            this.store = store;
            this.owned = owned;
            this.counts = counts;
            this.end = end;
        }

        @Override
        public String name() {
            return "mem";
        }

        @Override
        public boolean partitionsInterleave() {
            return true;
        }

        @Override
        public void open(PartitionListener listener) {
            for (int p : owned) {
                Checkpoint cp = store.committed(PARTITIONS.get(p));
                next[p] = Math.max(0, cp.position());
                listener.assigned(PARTITIONS.get(p), cp);
            }
        }

        @Override
        public int poll(PolledRecords into, int maxRecords, long maxWaitNanos) {
            into.clear();
            into.source = name();
            boolean open = false;
            for (int i = 0; i < owned.size(); i++) {
                int p = owned.get((turn + i) % owned.size());
                if (ended[p]) {
                    continue;
                }
                open = true;
                if (next[p] >= counts[p] && !end) {
                    continue;
                }
                turn = (turn + i + 1) % owned.size();
                return read(p, into, maxRecords);
            }
            if (!open) {
                return -1;
            }
            LockSupport.parkNanos(Math.min(maxWaitNanos, TimeUnit.MILLISECONDS.toNanos(20)));
            return 0;
        }

        private int read(int p, PolledRecords into, int maxRecords) {
            into.partition = PARTITIONS.get(p);
            into.partitionStart = next[p] == 0;
            int offset = 0;
            while (into.count < maxRecords && next[p] < counts[p]) {
                byte[] bytes = record(p, next[p]).getBytes(StandardCharsets.UTF_8);
                into.ensureDataCapacity(offset + bytes.length);
                System.arraycopy(bytes, 0, into.data, offset, bytes.length);
                into.add(offset, offset + bytes.length, next[p], next[p] + 1);
                offset += bytes.length;
                next[p]++;
            }
            into.endPosition = next[p];
            if (end && next[p] == counts[p]) {
                into.partitionEnd = true;
                ended[p] = true;
            }
            return into.count;
        }

        @Override
        public void commit(Map<String, Checkpoint> checkpoints) throws IOException {
            store.commit(checkpoints);
        }

        @Override
        public void close() {}
    }
}
