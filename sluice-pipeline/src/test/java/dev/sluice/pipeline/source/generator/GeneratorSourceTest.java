package dev.sluice.pipeline.source.generator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GeneratorSourceTest {
    private final LocalCheckpoints store = LocalCheckpoints.inMemory();

    private static List<Long> positions(List<Rec> recs) {
        return recs.stream().map(Rec::position).toList();
    }

    @Test
    void emitsEmptyRecordsNumberedByRow() throws Exception {
        GeneratorSource g = new GeneratorSource(10, 0, 0, 1, store, Clock.SYSTEM);
        PolledRecords b = new PolledRecords();
        assertThat(g.poll(b, 4, 0)).isEqualTo(4);
        assertThat(b.partitionStart).isTrue();
        assertThat(b.partition).isEqualTo("gen-0-of-1");
        assertThat(b.source).isEqualTo("generator");
        assertThat(b.length(0)).isZero();
        assertThat(b.endPosition).isEqualTo(4);
        List<Rec> rest = Rec.drain(g, 4, 10);
        assertThat(positions(rest)).containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void theLastBatchIsFlaggedAndThenTheSourceIsExhausted() throws Exception {
        GeneratorSource g = new GeneratorSource(3, 0, 0, 1, store, Clock.SYSTEM);
        PolledRecords b = new PolledRecords();
        assertThat(g.poll(b, 10, 0)).isEqualTo(3);
        assertThat(b.partitionEnd).isTrue();
        assertThat(g.poll(b, 10, 0)).isEqualTo(-1);
    }

    @Test
    void readersShareTheRowsByRemainder() throws Exception {
        List<Long> all = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            GeneratorSource g = new GeneratorSource(10, 0, r, 3, store, Clock.SYSTEM);
            List<Long> mine = positions(Rec.drain(g, 2, 100));
            int reader = r;
            assertThat(mine).allMatch(p -> p % 3 == reader);
            all.addAll(mine);
        }
        assertThat(all).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void sameRowsEveryRun() throws Exception {
        List<Long> first =
                positions(
                        Rec.drain(
                                new GeneratorSource(1000, 0, 1, 4, store, Clock.SYSTEM), 64, 100));
        List<Long> second =
                positions(
                        Rec.drain(
                                new GeneratorSource(1000, 0, 1, 4, store, Clock.SYSTEM), 7, 1000));
        assertThat(second).isEqualTo(first).hasSize(250);
    }

    @Test
    void anUnboundedGeneratorNeverEnds() {
        GeneratorSource g = new GeneratorSource(0, 0, 0, 1, store, Clock.SYSTEM);
        PolledRecords b = new PolledRecords();
        for (int i = 0; i < 1000; i++) {
            assertThat(g.poll(b, 10_000, 0)).isEqualTo(10_000);
        }
        assertThat(b.position[9_999]).isEqualTo(9_999_999L);
    }

    @Test
    void theRateIsKeptOnTheInjectedClock() {
        ManualClock clock = new ManualClock();
        GeneratorSource g = new GeneratorSource(0, 2000, 0, 2, store, clock);
        PolledRecords b = new PolledRecords();
        long rows = 0;
        while (clock.nanoTime() < 10_000_000_000L) {
            rows += g.poll(b, 10_000, 50_000_000L);
        }
        // 2000 rows/s over two readers: 1000/s for this one, for 10 s.
        assertThat(rows).isBetween(9_900L, 10_101L);
    }

    @Test
    void aPausedGeneratorCatchesUpByAtMostATenthOfASecond() {
        ManualClock clock = new ManualClock();
        GeneratorSource g = new GeneratorSource(0, 1000, 0, 1, store, clock);
        PolledRecords b = new PolledRecords();
        g.poll(b, 10_000, 0);
        clock.advanceMillis(60_000);
        assertThat(g.poll(b, 10_000, 0)).isEqualTo(100);
        assertThat(g.poll(b, 10_000, 0)).isZero();
    }

    @Test
    void resumesAtTheNextOwnedRowAfterTheCommittedPosition() throws Exception {
        GeneratorSource g = new GeneratorSource(100, 0, 1, 3, store, Clock.SYSTEM);
        g.commit(Map.of("gen-1-of-3", Checkpoint.at(50)));
        GeneratorSource again = new GeneratorSource(100, 0, 1, 3, store, Clock.SYSTEM);
        List<Long> pos = positions(Rec.drain(again, 100, 10));
        assertThat(pos.get(0)).isEqualTo(52L);
        assertThat(pos).allMatch(p -> p % 3 == 1 && p < 100);
    }

    @Test
    void aChangedReaderCountResumesFromTheSmallestOldPosition() throws Exception {
        store.commit(Map.of("gen-0-of-2", Checkpoint.at(40)));
        store.commit(Map.of("gen-1-of-2", Checkpoint.at(31)));
        List<Long> all = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            all.addAll(
                    positions(
                            Rec.drain(
                                    new GeneratorSource(50, 0, r, 3, store, Clock.SYSTEM),
                                    100,
                                    10)));
        }
        assertThat(all).hasSize(19).allMatch(p -> p >= 31);
    }

    @Test
    void anIncompleteOldLayoutMeansStartingOver() throws Exception {
        store.commit(Map.of("gen-0-of-2", Checkpoint.at(40)));
        GeneratorSource g = new GeneratorSource(50, 0, 0, 3, store, Clock.SYSTEM);
        assertThat(positions(Rec.drain(g, 100, 10)).get(0)).isZero();
    }
}
