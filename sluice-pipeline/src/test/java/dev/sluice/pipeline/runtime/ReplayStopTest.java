package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.sink.SealedBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Loss path 3 of the review: a job crashes with batches sent; its restart replays them and is
 * itself stopped (drained) at every point of the replay; a third run finishes. Against a server
 * that deduplicates by token, every record lands exactly once — a replayed batch cut short never
 * claims its recorded token (the server would drop the rows it lacks), and a drain does not send it
 * cut short at all (it is replayed whole next time), so nothing is written twice either.
 */
class ReplayStopTest {
    private static final int RECORDS = 30;

    @TempDir Path dir;

    /** A server that drops an INSERT whose token it has seen (insert_deduplication_token). */
    private static final class DedupServer {
        final Set<String> tokens = new HashSet<>();
        final List<Long> rows = new ArrayList<>();

        void insert(SealedBatch b) {
            if (tokens.add(b.token())) {
                for (int r = 0; r < b.rows(); r++) {
                    rows.add(b.block().column(0).getLong(r));
                }
            }
        }
    }

    private static String row(long k) {
        return k + ",r" + k;
    }

    static List<Arguments> stops() {
        List<Arguments> all = new ArrayList<>();
        for (int reached = 0; reached <= 3; reached++) {
            for (int stopAt = 0; stopAt <= RECORDS; stopAt++) {
                all.add(Arguments.of(reached, stopAt));
            }
        }
        return all;
    }

    @ParameterizedTest(name = "{0} batches reached the server, replay drained after {1} records")
    @MethodSource("stops")
    void everyRecordLandsExactlyOnce(int reached, int stopAt) throws Exception {
        Path cp = Files.createDirectories(dir.resolve("cp-" + reached + "-" + stopAt));
        DedupServer server = new DedupServer();

        // Run 1: three batches of 10 sealed and recorded; `reached` of them got to the server;
        // then a crash — no acknowledgement reached the tracker.
        LocalCheckpoints first = LocalCheckpoints.open(cp, "test");
        ThreadHarness one = harness(first, 10);
        one.source.partition("p", RECORDS, ReplayStopTest::row);
        one.start().turns(2);
        assertThat(one.batches()).hasSize(3);
        for (int i = 0; i < reached; i++) {
            server.insert(one.batches().get(i));
        }
        first.close();

        // Run 2: other batch settings; replays, and is drained after `stopAt` records.
        LocalCheckpoints second = LocalCheckpoints.open(cp, "test");
        ThreadHarness two = harness(second, 7);
        two.source.live("p", ReplayStopTest::row);
        two.start();
        two.source.offer("p", stopAt);
        two.turns(3);
        two.lifecycle.drain();
        finish(two, server);
        second.close();

        // Run 3: to the end.
        LocalCheckpoints third = LocalCheckpoints.open(cp, "test");
        ThreadHarness three = harness(third, 7);
        three.source.partition("p", RECORDS, ReplayStopTest::row);
        three.start();
        finish(three, server);
        third.close();

        Map<Long, Integer> times = new HashMap<>();
        server.rows.forEach(r -> times.merge(r, 1, Integer::sum));
        assertThat(times).hasSize(RECORDS);
        assertThat(times.values()).containsOnly(1);
    }

    @ParameterizedTest(name = "{0} reached the server; replay cut by backpressure after {1}")
    @MethodSource("stops")
    void aReplaySealedEarlyByBackpressureLosesNothing(int reached, int stopAt) throws Exception {
        Path cp = Files.createDirectories(dir.resolve("bp-" + reached + "-" + stopAt));
        DedupServer server = new DedupServer();
        LocalCheckpoints first = LocalCheckpoints.open(cp, "test");
        ThreadHarness one = harness(first, 10);
        one.source.partition("p", RECORDS, ReplayStopTest::row);
        one.start().turns(2);
        for (int i = 0; i < reached; i++) {
            server.insert(one.batches().get(i));
        }
        first.close();

        // Run 2: a budget so small that the open replay batch must be sealed to let it drain,
        // and the rest of the recorded range goes in a batch of its own. Two writers may send
        // them in either order: here only the last one sealed reaches the server before a crash.
        LocalCheckpoints second = LocalCheckpoints.open(cp, "test");
        ThreadHarness two = harness(second, 7);
        two.budgetBytes = 40;
        two.grain = 1;
        two.source.live("p", ReplayStopTest::row);
        two.start();
        two.source.offer("p", stopAt);
        for (int i = 0; i < 10; i++) {
            two.thread.runOnce();
            if (two.budget.paused() && !two.batches().isEmpty()) {
                // release the budget without acknowledging: the writer still holds the batch
                two.budget.release(two.budget.used());
            }
        }
        if (!two.batches().isEmpty()) {
            server.insert(two.batches().get(two.batches().size() - 1));
        }
        second.close(); // crash

        LocalCheckpoints third = LocalCheckpoints.open(cp, "test");
        ThreadHarness three = harness(third, 7);
        three.source.partition("p", RECORDS, ReplayStopTest::row);
        three.start();
        finish(three, server);
        third.close();

        Set<Long> distinct = new HashSet<>(server.rows);
        assertThat(distinct).hasSize(RECORDS); // at least once: nothing lost
    }

    private ThreadHarness harness(LocalCheckpoints checkpoints, int maxRows) {
        ThreadHarness h = new ThreadHarness();
        h.checkpoints = checkpoints;
        h.maxRows = maxRows;
        h.shards = 1;
        return h;
    }

    /** Runs to the end; every batch sent reaches the server, which acknowledges it. */
    private static void finish(ThreadHarness h, DedupServer server) throws IOException {
        int seen = 0;
        for (int turn = 0; turn < 1_000 && !h.thread.done(); turn++) {
            for (; seen < h.batches().size(); seen++) {
                SealedBatch b = h.batches().get(seen);
                server.insert(b);
                h.sink.ack(b);
            }
            h.thread.runOnce();
        }
        assertThat(h.thread.done()).isTrue();
    }
}
