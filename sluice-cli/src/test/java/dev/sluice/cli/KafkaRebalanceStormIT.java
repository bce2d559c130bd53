package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebalance storm: {@code sluice run} instances join and leave the groups every few seconds while
 * a producer keeps writing json700 events to 8 partitions, so partitions keep moving with batches
 * in flight — revoked (sealed, awaited, committed, forgotten) when an instance leaves with SIGTERM
 * or joins, lost when one is killed. Every event must arrive, with no duplicate in the
 * ReplicatedMergeTree table and every duplicate of the MergeTree table explained ({@link
 * MirroredGroups}, {@link ReplayAccounting}).
 *
 * <p>Between one and three instances (of two pipeline threads each) per group; every 2–5 s one
 * joins or leaves (at random; none below one, none above three; one that leaves has joined its
 * group); a leave is a SIGTERM (drain, commit, exit 0) three times in four and a {@code kill -9}
 * otherwise (always the first; the second always a SIGTERM). Seeded: {@code -Dsluice.it.seed=N}
 * repeats the schedule. CI runs the short form (25 s); {@code -Dsluice.it.full=true} a minute.
 */
class KafkaRebalanceStormIT {
    private static final Duration STORM =
            StreamIt.scale(Duration.ofSeconds(35), Duration.ofMinutes(1));
    private static final long RATE = StreamIt.scale(1_500L, 4_000L);
    private static final int MAX_INSTANCES = 3;

    @TempDir Path dir;

    @Test
    void instancesJoiningAndLeavingEveryFewSecondsLoseNothing() {
        assertTimeoutPreemptively(
                StreamIt.scale(Duration.ofMinutes(4), Duration.ofMinutes(10)), this::storm);
    }

    private void storm() throws Exception {
        StreamIt it = new StreamIt("KafkaRebalanceStormIT");
        Random random = new Random(it.seed());
        long events = RATE * STORM.toSeconds();
        try (MirroredGroups groups = new MirroredGroups(it, dir, "storm", random.nextLong())) {
            List<MirroredGroups.Pair> live = new ArrayList<>();
            int slots = 0;
            live.add(groups.start(slots++));
            groups.awaitAssigned();
            groups.producer.startAtRate(RATE, events);
            it.log(
                    "producing %,d events at %,d/s during a %d s storm",
                    events, RATE, STORM.toSeconds());
            long end = System.nanoTime() + STORM.toNanos();
            int joins = 0;
            int terms = 0;
            int kills = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(2000 + random.nextInt(3000));
                groups.assertRunning();
                // Leaving: one that has joined (a JVM still starting up has no partitions to
                // move); when none has, or at one instance, a join; at the maximum, a leave.
                List<MirroredGroups.Pair> joined = new ArrayList<>();
                for (MirroredGroups.Pair p : live) {
                    if (groups.assigned(p)) {
                        joined.add(p);
                    }
                }
                boolean join =
                        live.size() < MAX_INSTANCES
                                && (live.size() <= 1 || joined.isEmpty() || random.nextBoolean());
                if (join) {
                    MirroredGroups.Pair p = groups.start(slots++);
                    live.add(p);
                    joins++;
                    it.log("join: rmt %s, mt %s (%d live)", p.rmt(), p.mt(), live.size());
                } else if (!joined.isEmpty()) {
                    MirroredGroups.Pair p = joined.get(random.nextInt(joined.size()));
                    live.remove(p);
                    // The first leave is a kill, the second a SIGTERM (drain and leave), then
                    // one in four a kill.
                    int leaves = kills + terms;
                    if (leaves == 0 || leaves > 1 && random.nextInt(4) == 0) {
                        groups.kill(p);
                        kills++;
                    } else {
                        groups.terminate(p);
                        terms++;
                    }
                }
                it.log(
                        "produced %,d; rmt wrote %,d, mt %,d",
                        groups.producer.sent(), groups.rmt.distinct(), groups.mt.distinct());
            }
            long produced = groups.producer.finish();
            it.log(
                    "storm over: %d joins, %d SIGTERMs, %d kills; produced %,d events",
                    joins, terms, kills, produced);
            assertThat(produced).isEqualTo(events);
            groups.finishAndCheck(StreamIt.scale(Duration.ofMinutes(2), Duration.ofMinutes(5)));
            groups.dropAll();
        }
    }
}
