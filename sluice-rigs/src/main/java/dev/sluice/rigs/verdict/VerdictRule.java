package dev.sluice.rigs.verdict;

import java.util.List;
import java.util.Locale;

/**
 * The limiter verdict of one repetition, from the counter samples of its steady-state window:
 *
 * <ol>
 *   <li>{@code budget} when the budget was below the sizing rule — whatever else happened, the
 *       pipeline may have throttled itself, so the figure is no ceiling;
 *   <li>{@code sink} when the pause-events counter rose during the window or a sample caught the
 *       paused gauge at 1: backpressure clamped the source, so the sink set the rate;
 *   <li>{@code indeterminate-checkpoint} when nothing paused but the checkpoint-pending gauge ran
 *       high — at or above the pipeline's slot count ({@code threads + shards ×
 *       inflight_per_shard}) in at least {@value #HIGH_PENDING_SHARE_PERCENT}% of the samples: the
 *       sink had a backlog the budget never saw, so either could have been the limit;
 *   <li>{@code generator} otherwise: the source could not feed faster, and the figure is a lower
 *       bound of what the sink takes.
 * </ol>
 */
public final class VerdictRule {
    /** The share of samples with a full checkpoint backlog that makes a window indeterminate. */
    static final int HIGH_PENDING_SHARE_PERCENT = 25;

    private VerdictRule() {}

    /** A verdict and the counter facts that decided it, for the report. */
    public record Judgement(Verdict verdict, String detail) {}

    /**
     * @param window the samples of the steady-state window, in time order, at least two
     * @throws IllegalArgumentException for fewer than two samples, samples out of order, or
     *     counters that went down (a restarted pipeline: not one window)
     */
    public static Judgement judge(List<CounterSample> window, Sizing sizing) {
        check(window);
        CounterSample first = window.get(0);
        CounterSample last = window.get(window.size() - 1);
        if (sizing.belowRule()) {
            return new Judgement(
                    Verdict.BUDGET,
                    String.format(
                            Locale.ROOT,
                            "budget %,d B below the sizing rule's %,d B",
                            sizing.budgetBytes(),
                            sizing.ruleBytes()));
        }
        long pauses = last.pauseEvents() - first.pauseEvents();
        long pausedSamples = window.stream().filter(CounterSample::paused).count();
        if (pauses > 0 || pausedSamples > 0) {
            return new Judgement(
                    Verdict.SINK,
                    String.format(
                            Locale.ROOT,
                            "%d pause(s) in the window; paused in %d of %d samples",
                            pauses,
                            pausedSamples,
                            window.size()));
        }
        long high = window.stream().filter(s -> s.pendingBatches() >= sizing.slots()).count();
        if (high * 100 >= (long) HIGH_PENDING_SHARE_PERCENT * window.size()) {
            return new Judgement(
                    Verdict.INDETERMINATE_CHECKPOINT,
                    String.format(
                            Locale.ROOT,
                            "no pause; checkpoint-pending ≥ %d batches in %d of %d samples",
                            sizing.slots(),
                            high,
                            window.size()));
        }
        return new Judgement(
                Verdict.GENERATOR,
                String.format(
                        Locale.ROOT,
                        "no pause in %d samples; checkpoint-pending ≥ %d in %d",
                        window.size(),
                        sizing.slots(),
                        high));
    }

    /** Acknowledged rows per second over the window. */
    public static double rowsPerSecond(List<CounterSample> window) {
        check(window);
        CounterSample first = window.get(0);
        CounterSample last = window.get(window.size() - 1);
        return (last.sinkRecords() - first.sinkRecords()) / ((last.nanos() - first.nanos()) / 1e9);
    }

    private static void check(List<CounterSample> window) {
        if (window.size() < 2) {
            throw new IllegalArgumentException(
                    "a window needs at least two samples, got " + window.size());
        }
        for (int i = 1; i < window.size(); i++) {
            CounterSample a = window.get(i - 1);
            CounterSample b = window.get(i);
            if (b.nanos() <= a.nanos()) {
                throw new IllegalArgumentException(
                        "sample " + i + " is not later than sample " + (i - 1));
            }
            if (b.sinkRecords() < a.sinkRecords() || b.pauseEvents() < a.pauseEvents()) {
                throw new IllegalArgumentException(
                        "sample " + i + ": a counter went down (not one pipeline's window)");
            }
        }
    }
}
