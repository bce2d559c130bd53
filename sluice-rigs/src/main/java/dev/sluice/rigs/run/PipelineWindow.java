package dev.sluice.rigs.run;

import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineException;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.rigs.Progress;
import dev.sluice.rigs.verdict.CounterSample;
import dev.sluice.rigs.verdict.RegistryReader;
import dev.sluice.rigs.verdict.VerdictRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Runs a real pipeline through a warm-up and a steady-state window, sampling its counters (every
 * {@value #SAMPLE_MILLIS} ms in the window), then stops it: what the saturation and Kafka rigs
 * measure.
 */
public final class PipelineWindow {
    static final long SAMPLE_MILLIS = 200;

    /** Acknowledgement steps a window must see to measure a rate (see the sampling loop). */
    static final int MIN_ACK_STEPS = 2;

    /** How many times its length a window may stretch to see {@link #MIN_ACK_STEPS}. */
    static final int MAX_STRETCH = 5;

    /** How long a pipeline may take to have its first row acknowledged. */
    static final Duration FIRST_ACK_TIMEOUT = Duration.ofMinutes(2);

    private PipelineWindow() {}

    /**
     * What one window saw.
     *
     * @param samples the window's counter samples, first and last at its edges
     * @param first the registry at the window's start
     * @param last the registry at the window's end
     * @param failure why the pipeline ended before the window did, or null
     * @param result how the pipeline ended after the stop
     */
    public record Outcome(
            List<CounterSample> samples,
            RegistryReader.Values first,
            RegistryReader.Values last,
            ProcessCpu.Mark cpuFrom,
            ProcessCpu.Mark cpuTo,
            long serverFrom,
            long serverTo,
            String failure,
            PipelineResult result,
            List<String> warnings) {

        /** Growth of {@code series} over the window. */
        public long delta(String series) {
            return last.get(series) - first.get(series);
        }

        public double seconds() {
            return (last.nanos() - first.nanos()) / 1e9;
        }
    }

    /** Hooks at the window's edges (e.g. to start and stop a paced producer's clock). */
    public interface Edges {
        void windowStarts();

        void windowEnds();

        /**
         * Records the source can read in all (a finite backlog), or {@link Long#MAX_VALUE}. The
         * window closes early once the source has read them: from then on the pipeline drains, and
         * a rate measured over the draining would not be its steady state.
         */
        default long sourceRecords() {
            return Long.MAX_VALUE;
        }

        Edges NONE =
                new Edges() {
                    @Override
                    public void windowStarts() {}

                    @Override
                    public void windowEnds() {}
                };
    }

    /**
     * @param serverTicks the server's CPU clock, read at the window's edges
     */
    public static Outcome run(
            PipelineSpec spec,
            Factories factories,
            Duration warmup,
            Duration window,
            Progress progress,
            LongSupplier serverTicks,
            Edges edges)
            throws InterruptedException {
        Pipeline pipeline;
        try {
            pipeline = Pipeline.start(spec, factories, Clock.SYSTEM);
        } catch (PipelineException e) {
            return new Outcome(
                    List.of(), null, null, null, null, 0, 0, e.getMessage(), null, List.of());
        }
        List<String> warnings = new ArrayList<>(pipeline.warnings());
        RegistryReader reader = new RegistryReader(pipeline.registry());
        try {
            // The warm-up starts at the first acknowledged row: connecting, a consumer group's
            // assignment and the first batch's linger are start-up, not steady state.
            long firstAckDeadline = System.nanoTime() + FIRST_ACK_TIMEOUT.toNanos();
            while (reader.read().get("etl_sink_records_total") == 0 && !pipeline.isDone()) {
                if (System.nanoTime() > firstAckDeadline) {
                    pipeline.stop();
                    await(pipeline);
                    return new Outcome(
                            List.of(),
                            null,
                            null,
                            null,
                            null,
                            0,
                            0,
                            "no row was acknowledged within "
                                    + FIRST_ACK_TIMEOUT.toSeconds()
                                    + " s of the start",
                            null,
                            warnings);
                }
                Thread.sleep(SAMPLE_MILLIS);
            }
            long warmupEnd = System.nanoTime() + warmup.toNanos();
            RegistryReader.Values prev = reader.read();
            while (System.nanoTime() < warmupEnd && !pipeline.isDone()) {
                Thread.sleep(
                        Math.min(1000, Math.max(1, (warmupEnd - System.nanoTime()) / 1_000_000)));
                RegistryReader.Values now = reader.read();
                progress.rate("warm-up", rate(prev, now));
                prev = now;
            }
            if (pipeline.isDone()) {
                return ended(pipeline, warnings);
            }
            edges.windowStarts();
            long server0 = serverTicks.getAsLong();
            ProcessCpu.Mark cpu0 = ProcessCpu.mark();
            RegistryReader.Values first = reader.read();
            List<CounterSample> samples = new ArrayList<>();
            samples.add(first.sample());
            long end = first.nanos() + window.toNanos();
            long latest = first.nanos() + MAX_STRETCH * window.toNanos();
            RegistryReader.Values last = first;
            RegistryReader.Values shown = first;
            int ackSteps = 0;
            while (!pipeline.isDone()) {
                long now = System.nanoTime();
                // Acknowledgements come a batch at a time: a window that saw fewer than
                // MIN_ACK_STEPS of them measures the batch size, not a rate, so it stretches
                // (to MAX_STRETCH windows) until it has.
                boolean enough = ackSteps >= MIN_ACK_STEPS;
                long left = (enough ? end : latest) - now;
                if (left <= 0) {
                    break;
                }
                long untilEnd = Math.max(1, (end - now) / 1_000_000);
                Thread.sleep(enough ? Math.min(SAMPLE_MILLIS, untilEnd) : SAMPLE_MILLIS);
                RegistryReader.Values previous = last;
                last = reader.read();
                samples.add(last.sample());
                if (last.get("etl_sink_records_total") > previous.get("etl_sink_records_total")) {
                    ackSteps++;
                }
                if (last.get("etl_source_records_total") >= edges.sourceRecords()) {
                    break;
                }
                if (last.nanos() - shown.nanos() >= 1_000_000_000L) {
                    progress.rate("window", rate(shown, last));
                    shown = last;
                }
            }
            ProcessCpu.Mark cpu1 = ProcessCpu.mark();
            long server1 = serverTicks.getAsLong();
            edges.windowEnds();
            if (pipeline.isDone()) {
                return ended(pipeline, warnings);
            }
            pipeline.stop();
            PipelineResult result = await(pipeline);
            warnings.addAll(pipeline.takeWarnings());
            String failure =
                    result.status() == PipelineResult.Status.FAILED ? result.message() : null;
            return new Outcome(
                    samples, first, last, cpu0, cpu1, server0, server1, failure, result, warnings);
        } finally {
            pipeline.close();
        }
    }

    private static Outcome ended(Pipeline pipeline, List<String> warnings)
            throws InterruptedException {
        PipelineResult result = await(pipeline);
        warnings.addAll(pipeline.takeWarnings());
        return new Outcome(
                List.of(),
                null,
                null,
                null,
                null,
                0,
                0,
                "the pipeline ended before the window did: " + result.message(),
                result,
                warnings);
    }

    private static PipelineResult await(Pipeline pipeline) throws InterruptedException {
        PipelineResult r = pipeline.awaitCompletion(Duration.ofMinutes(2));
        if (r == null) {
            throw new IllegalStateException("the pipeline did not stop within 2 minutes");
        }
        return r;
    }

    private static double rate(RegistryReader.Values a, RegistryReader.Values b) {
        if (b.nanos() <= a.nanos()) {
            return 0;
        }
        return VerdictRule.rowsPerSecond(List.of(a.sample(), b.sample()));
    }
}
