package dev.sluice.pipeline.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Property 1 under random interleavings of rows, skips, seals and out-of-order acknowledgements:
 * the committable position never passes a record whose batch is unacknowledged, never goes back,
 * and reaches the end once everything is acknowledged.
 */
class CheckpointTrackerPropertyTest {
    private static final long STRIDE = 10;

    /** A batch of the model: the positions of its rows. */
    private static final class Model {
        final CheckpointTracker.Pending pending;
        final List<Long> rows = new ArrayList<>();
        boolean acked;

        Model(CheckpointTracker.Pending pending) {
            this.pending = pending;
        }
    }

    @Property(tries = 500)
    void neverPassesUnacknowledgedRowsAndReachesTheEnd(
            @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 99) Integer> ops,
            @ForAll @IntRange(min = -1, max = 50) int resumeIndex) {
        long start = Math.max(0, resumeIndex) * STRIDE;
        CheckpointTracker tracker = new CheckpointTracker(resumeIndex < 0 ? -1 : start);
        List<Model> batches = new ArrayList<>();
        Model open = null;
        long next = start;
        long last = tracker.committable();
        for (int op : ops) {
            if (op < 50) { // a record becomes a row of the open batch
                if (open == null) {
                    open = new Model(tracker.open(next, 0));
                    batches.add(open);
                }
                open.rows.add(next);
                next += STRIDE;
                tracker.consumed(next);
            } else if (op < 60) { // skipped, filtered or dead-lettered
                next += STRIDE;
                tracker.consumed(next);
            } else if (op < 70) { // seal
                open = null;
            } else if (op < 95) { // acknowledge some sealed batch
                List<Model> sealed = new ArrayList<>();
                for (Model b : batches) {
                    if (b != open && !b.acked) {
                        sealed.add(b);
                    }
                }
                if (!sealed.isEmpty()) {
                    Model b = sealed.get(op % sealed.size());
                    b.acked = true;
                    tracker.acknowledge(b.pending);
                }
            } else {
                tracker.advance();
            }
            long c = tracker.committable();
            assertThat(c).as("monotonic").isGreaterThanOrEqualTo(last);
            assertThat(c)
                    .as("within what was read")
                    .isLessThanOrEqualTo(Math.max(next, tracker.committed()));
            for (Model b : batches) {
                if (!b.acked) {
                    for (long row : b.rows) {
                        assertThat(c)
                                .as("commit passes unacknowledged row " + row)
                                .isLessThanOrEqualTo(row);
                    }
                }
            }
            last = c;
        }
        for (Model b : batches) {
            if (!b.acked) {
                b.acked = true;
                tracker.acknowledge(b.pending);
            }
        }
        assertThat(tracker.pendingBatches()).isZero();
        if (next > start || resumeIndex >= 0) {
            assertThat(tracker.committable()).isEqualTo(next);
        }
    }
}
