package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.connect.BatchCuts.Cut;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BatchCutsTest {
    private static final TopicPartition TP = new TopicPartition("events", 3);
    private static final long NOW = 1_700_000_000L;

    private static BatchLedger.Entry entry(long first, long last) {
        return new BatchLedger.Entry(TP, first, last, NOW + first);
    }

    /**
     * Feeds the records at {@code offsets} as the task does (cut before, open, consume, cut when
     * full) and returns every cut, the open batch's last included.
     */
    private static List<Cut> feed(BatchCuts cuts, int maxRecords, long... offsets) {
        List<Cut> out = new ArrayList<>();
        for (long o : offsets) {
            if (cuts.cutBefore(o)) {
                add(out, cuts.cut());
            }
            if (!cuts.isOpen()) {
                cuts.open(o, NOW, 0);
            }
            cuts.consumed(o);
            if (cuts.full(maxRecords)) {
                add(out, cuts.cut());
            }
        }
        return out;
    }

    /**
     * {@link #feed} as the task feeds runs of records: whether each record joins the open batch is
     * asked ({@link BatchCuts#continues}) for the whole run before any of it is consumed; then the
     * run is consumed and the batch cut when full. Must cut exactly where {@code feed} cuts.
     */
    private static List<Cut> feedInRuns(BatchCuts cuts, int maxRecords, long... offsets) {
        List<Cut> out = new ArrayList<>();
        int k = 0;
        while (k < offsets.length) {
            if (cuts.cutBefore(offsets[k])) {
                add(out, cuts.cut());
            }
            if (!cuts.isOpen()) {
                cuts.open(offsets[k], NOW, 0);
            }
            int end = k + 1;
            while (end < offsets.length
                    && cuts.continues(offsets[end - 1], offsets[end], maxRecords)) {
                end++;
            }
            for (int j = k; j < end; j++) {
                cuts.consumed(offsets[j]);
            }
            if (cuts.full(maxRecords)) {
                add(out, cuts.cut());
            }
            k = end;
        }
        return out;
    }

    @Test
    void runsOfRecordsAreCutExactlyWhereRecordsOneByOneAre() {
        long[][] offsetSets = {
            range(0, 24), range(10, 47), range(50, 149), {12, 13, 17, 20, 25, 29}, range(30, 34)
        };
        List<List<BatchLedger.Entry>> replays =
                List.of(
                        List.of(),
                        List.of(entry(10, 12), entry(13, 40)),
                        List.of(entry(100, 149)),
                        List.of(entry(10, 19), entry(20, 29)),
                        List.of(entry(0, 3), entry(4, 4), entry(22, 30)));
        for (long[] offsets : offsetSets) {
            for (List<BatchLedger.Entry> replay : replays) {
                for (int max : new int[] {1, 2, 5, 10, 1_000}) {
                    BatchCuts oneByOne = new BatchCuts(replay);
                    BatchCuts inRuns = new BatchCuts(replay);
                    List<Cut> expected = feed(oneByOne, max, offsets);
                    assertThat(feedInRuns(inRuns, max, offsets))
                            .as(
                                    "offsets %s, replay %s, max %d",
                                    Arrays.toString(offsets), replay, max)
                            .isEqualTo(expected);
                    assertThat(inRuns.cut()).isEqualTo(oneByOne.cut());
                }
            }
        }
        // a run goes on inside a batch and stops where one is full or cut
        BatchCuts cuts = new BatchCuts(List.of(entry(20, 29)));
        cuts.open(0, NOW, 0);
        assertThat(cuts.continues(0, 1, 10)).isTrue();
        assertThat(cuts.continues(9, 10, 10)).as("full after 9").isFalse();
        assertThat(cuts.continues(18, 20, 1_000)).as("20 begins a recorded batch").isFalse();
        assertThat(cuts.isOpen()).isTrue();
    }

    private static void add(List<Cut> out, Cut c) {
        if (c != null) {
            out.add(c);
        }
    }

    private static long[] range(long from, long to) {
        long[] r = new long[(int) (to - from + 1)];
        for (int i = 0; i < r.length; i++) {
            r[i] = from + i;
        }
        return r;
    }

    @Test
    void withoutRecordedBatchesABatchEndsAtItsSizeOrByTime() {
        BatchCuts cuts = new BatchCuts(List.of());
        assertThat(feed(cuts, 10, range(0, 24)))
                .containsExactly(
                        new Cut(0, 9, NOW, false, false), new Cut(10, 19, NOW, false, false));
        assertThat(cuts.lingered(999_999_999, 1_000_000_000)).isFalse();
        assertThat(cuts.lingered(1_000_000_000, 1_000_000_000)).isTrue();
        assertThat(cuts.cut()).isEqualTo(new Cut(20, 24, NOW, false, false));
        assertThat(cuts.isOpen()).isFalse();
        assertThat(cuts.cut()).isNull();
    }

    @Test
    void recordedBatchesAreReCreatedAtTheirBoundariesWithTheirNowWhateverTheSize() {
        // a run sealed 10..12 and 13..40 by linger; the replay's size limit is 5
        BatchCuts cuts = new BatchCuts(List.of(entry(10, 12), entry(13, 40)));
        List<Cut> got = feed(cuts, 5, range(10, 47));
        assertThat(got)
                .containsExactly(
                        new Cut(10, 12, NOW + 10, true, true),
                        new Cut(13, 40, NOW + 13, true, true),
                        new Cut(41, 45, NOW, false, false));
        assertThat(cuts.cut()).isEqualTo(new Cut(46, 47, NOW, false, false));
    }

    @Test
    void aNewBatchEndsWhereTheNextRecordedOneBegins() {
        BatchCuts cuts = new BatchCuts(List.of(entry(100, 149)));
        assertThat(feed(cuts, 1_000, range(50, 149)))
                .containsExactly(
                        new Cut(50, 99, NOW, false, false),
                        new Cut(100, 149, NOW + 100, true, true));
    }

    @Test
    void aRecordedBatchWhoseRecordsThinnedOutEndsAtItsRecordedEndAndKeepsItsRange() {
        // compaction took 11, 18 and 19 since: the batch still ends at 19 when 20 arrives
        BatchCuts cuts = new BatchCuts(List.of(entry(10, 19), entry(20, 29)));
        assertThat(feed(cuts, 1_000, 12, 13, 17, 20, 25, 29))
                .containsExactly(
                        new Cut(10, 19, NOW + 10, true, true),
                        new Cut(20, 29, NOW + 20, true, true));
    }

    @Test
    void recordedBatchesWhoseRecordsAreGoneAreSkipped() {
        BatchCuts cuts = new BatchCuts(List.of(entry(10, 19), entry(20, 29)));
        assertThat(feed(cuts, 1_000, range(30, 34))).isEmpty();
        assertThat(cuts.cut()).isEqualTo(new Cut(30, 34, NOW, false, false));
    }

    @Test
    void aRecreatedBatchIgnoresLingerUntilThePatienceRunsOutAndIsThenRecordedAsItsOwnRange() {
        BatchCuts cuts = new BatchCuts(List.of(entry(10, 19)));
        assertThat(feed(cuts, 1_000, range(10, 15))).isEmpty();
        long linger = 1_000_000_000L;
        assertThat(cuts.lingered(30 * linger, linger)).isFalse();
        assertThat(cuts.lingered(BatchCuts.REPLAY_PATIENCE_NANOS, linger)).isTrue();
        assertThat(cuts.cut()).isEqualTo(new Cut(10, 15, NOW + 10, true, false));
    }

    @Test
    void aBatchOpenedButWithoutARecordConsumedCutsToNothing() {
        BatchCuts cuts = new BatchCuts(List.of());
        cuts.open(5, NOW, 0);
        assertThat(cuts.cut()).isNull();
    }
}
