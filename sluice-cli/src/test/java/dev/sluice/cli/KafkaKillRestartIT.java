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
 * {@code kill -9} of {@code sluice run} consumers at random points, each restarted at once, plus a
 * broker restart and a ClickHouse restart, while a producer writes json700 events to 8 partitions:
 * every event must arrive, into a ReplicatedMergeTree table with no duplicate, and into a MergeTree
 * table with every duplicate explained by a replayed batch ({@link ReplayAccounting}).
 *
 * <p>Two groups read the topic at once ({@link MirroredGroups}), each with two {@code sluice run}
 * instances of two pipeline threads (four members), in slots 0 and 1; a kill hits the instances of
 * one slot in both groups. The ClickHouse restart is server 1's (the MergeTree table's server and
 * one of the replicas), the broker restart a clean stop and start of the single broker.
 *
 * <p>The producer starts once every instance owns partitions, at a steady rate; the kills come at
 * random times over the production, the two restarts at random times among them; which slot (one
 * whose instances own partitions, when there is one), and how long before its restart, are random
 * too. The seed is printed: {@code -Dsluice.it.seed=N} repeats a schedule. CI runs the short form
 * (60k events over 30 s, 4 kills); {@code -Dsluice.it.full=true} the issue's: 1M events, 20 kills.
 */
class KafkaKillRestartIT {
    private static final long EVENTS = StreamIt.scale(60_000L, 1_000_000L);
    private static final int KILLS = StreamIt.scale(4, 20);
    private static final long RATE = StreamIt.scale(2_000L, 8_000L);

    @TempDir Path dir;

    @Test
    void killedConsumersRestartAndLoseNothing() {
        assertTimeoutPreemptively(
                StreamIt.scale(Duration.ofMinutes(4), Duration.ofMinutes(30)),
                this::killAndRestart);
    }

    private void killAndRestart() throws Exception {
        StreamIt it = new StreamIt("KafkaKillRestartIT");
        Random random = new Random(it.seed());
        try (MirroredGroups groups = new MirroredGroups(it, dir, "kill", random.nextLong())) {
            MirroredGroups.Pair[] slots = {groups.start(0), groups.start(1)};
            groups.awaitAssigned();
            groups.producer.startAtRate(RATE, EVENTS);
            double window = (double) EVENTS / RATE;
            it.log("producing %,d events at %,d/s: %.0f s", EVENTS, RATE, window);

            // The schedule: kills at random times over the production, the broker and the
            // server restart at random times among them (an action that takes long delays the
            // next ones).
            List<double[]> schedule = new ArrayList<>(); // {seconds from now, kind}
            for (int k = 0; k < KILLS; k++) {
                schedule.add(new double[] {(0.02 + 0.93 * random.nextDouble()) * window, 0});
            }
            schedule.add(new double[] {(0.15 + 0.7 * random.nextDouble()) * window, 1});
            schedule.add(new double[] {(0.15 + 0.7 * random.nextDouble()) * window, 2});
            schedule.sort((a, b) -> Double.compare(a[0], b[0]));
            double start = it.now();
            for (double[] e : schedule) {
                while (it.now() < start + e[0]) {
                    groups.assertRunning();
                    Thread.sleep(20);
                }
                it.log(
                        "produced %,d; rmt wrote %,d, mt %,d",
                        groups.producer.sent(), groups.rmt.distinct(), groups.mt.distinct());
                switch ((int) e[1]) {
                    case 0 -> {
                        // An instance at work when there is one (else the kill finds a JVM
                        // still starting, which is a case too, but a lesser one).
                        List<Integer> working = new ArrayList<>();
                        for (int k = 0; k < slots.length; k++) {
                            if (groups.assigned(slots[k])) {
                                working.add(k);
                            }
                        }
                        int slot =
                                working.isEmpty()
                                        ? random.nextInt(slots.length)
                                        : working.get(random.nextInt(working.size()));
                        long restartAfter = random.nextInt(1500);
                        groups.kill(slots[slot]);
                        Thread.sleep(restartAfter);
                        slots[slot] = groups.start(slot);
                        it.log("restarted slot %d after %d ms", slot, restartAfter);
                    }
                    case 1 -> groups.restartBroker();
                    default -> groups.restartServer1();
                }
            }
            long produced = groups.producer.finish();
            it.log("produced %,d events", produced);
            assertThat(produced).isEqualTo(EVENTS);
            groups.finishAndCheck(StreamIt.scale(Duration.ofMinutes(2), Duration.ofMinutes(10)));
            groups.dropAll();
        }
    }
}
