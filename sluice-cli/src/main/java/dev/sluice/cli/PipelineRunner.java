package dev.sluice.cli;

import dev.sluice.pipeline.runtime.Factories;
import dev.sluice.pipeline.runtime.Pipeline;
import dev.sluice.pipeline.runtime.PipelineException;
import dev.sluice.pipeline.runtime.PipelineResult;
import dev.sluice.pipeline.runtime.PipelineStats;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.time.Clock;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * Runs a pipeline for a command: live progress, SIGTERM/SIGINT drain (in-flight batches finish,
 * positions are committed, exit 0), a summary, and an exit code that is 0 only when every record
 * was written or accounted for by the error policy.
 */
final class PipelineRunner {
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    private final PrintStream out;
    private final PrintStream err;
    private String resumeHint = "";
    private boolean showNotes;
    private String unfinishedHint;
    private volatile int signal;

    PipelineRunner(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Appended to a failure's message, e.g. how to continue from the committed position. */
    PipelineRunner resumeHint(String hint) {
        this.resumeHint = hint;
        return this;
    }

    /**
     * Also print what start-up decided about the table (defaults, pre-sorting, partition split), as
     * {@code sluice check} does: for a long-running pipeline, the operator's record of it.
     */
    PipelineRunner showNotes() {
        this.showNotes = true;
        return this;
    }

    /**
     * The job has an end (a load of files or stdin): stopped by SIGTERM/SIGINT before it, it is
     * unfinished, so the exit code says so (143/130) and the summary says where to resume — a
     * stream ({@code run}) drained on request exits 0.
     */
    PipelineRunner bounded(String howToFinish) {
        this.unfinishedHint = howToFinish;
        return this;
    }

    /**
     * @param expectedRows rows expected, for progress when input size is unknown (0: unknown)
     */
    int run(PipelineSpec spec, Factories factories, long expectedRows) throws InterruptedException {
        Pipeline pipeline;
        try {
            pipeline = Pipeline.start(spec, factories, Clock.SYSTEM);
        } catch (PipelineException e) {
            throw new CliException(e.getMessage(), e);
        }
        try (pipeline) {
            for (String w : pipeline.warnings()) {
                err.println("warning: " + w);
            }
            if (showNotes) {
                for (String n : pipeline.notes()) {
                    err.println("note: " + n);
                }
            }
            if (pipeline.adminAddress() != null) {
                err.println(
                        "metrics: http://"
                                + pipeline.adminAddress().getHostString()
                                + ":"
                                + pipeline.adminAddress().getPort()
                                + "/metrics");
            }
            AtomicBoolean signalled = new AtomicBoolean();
            java.util.function.IntConsumer drain =
                    number -> {
                        if (signal == 0) {
                            signal = number;
                        }
                        err.println();
                        if (signalled.compareAndSet(false, true)) {
                            err.println(
                                    "draining: finishing in-flight batches (signal again to stop"
                                            + " at once)...");
                            pipeline.drain(DRAIN_TIMEOUT);
                        } else {
                            // A second signal means "now": stop without waiting for the drain.
                            err.println(
                                    "stopping: in-flight batches are abandoned (replayed on the next run)");
                            pipeline.stop();
                        }
                    };
            handle("TERM", () -> drain.accept(15));
            handle("INT", () -> drain.accept(2));
            ProgressLine progress =
                    new ProgressLine(out, ProgressLine.stdoutIsTerminal(), expectedRows);
            long started = System.nanoTime();
            PipelineResult result;
            while ((result = pipeline.awaitCompletion(Duration.ofMillis(200))) == null) {
                warn(pipeline, progress);
                PipelineStats s = pipeline.stats();
                progress.update(s.rowsWritten(), s.sourceBytesRead(), s.sourceBytesTotal());
            }
            warn(pipeline, progress);
            progress.finish();
            summary(result.stats(), (System.nanoTime() - started) / 1e9);
            return switch (result.status()) {
                case COMPLETED -> 0;
                case DRAINED -> {
                    if (unfinishedHint == null) {
                        yield 0;
                    }
                    err.println(
                            "sluice: interrupted before the end of the input; "
                                    + committedLine(result)
                                    + "; "
                                    + unfinishedHint);
                    yield 128 + (signal == 0 ? 15 : signal);
                }
                case STOPPED, FAILED -> {
                    err.println("sluice: " + result.message() + resumeHint);
                    yield 1;
                }
            };
        }
    }

    private void warn(Pipeline pipeline, ProgressLine progress) {
        List<String> ws = pipeline.takeWarnings();
        if (!ws.isEmpty()) {
            progress.finish();
            for (String w : ws) {
                err.println("warning: " + w);
            }
        }
    }

    /** Where each partition's committed position is, compactly: what {@code --resume} continues. */
    static String committedLine(PipelineResult result) {
        Map<String, Long> committed = new TreeMap<>(result.committed());
        if (committed.isEmpty()) {
            return "nothing was committed";
        }
        StringBuilder sb = new StringBuilder("committed positions: ");
        int shown = 0;
        for (Map.Entry<String, Long> e : committed.entrySet()) {
            if (shown == 5) {
                sb.append(", and ").append(committed.size() - shown).append(" more");
                break;
            }
            sb.append(shown++ == 0 ? "" : ", ").append(e.getKey()).append(" at byte ");
            sb.append(e.getValue());
        }
        return sb.toString();
    }

    private static void handle(String signal, Runnable action) {
        try {
            Signal.handle(new Signal(signal), s -> new Thread(action, "sluice-drain").start());
        } catch (IllegalArgumentException e) {
            // the platform does not know this signal: nothing to handle
        }
    }

    private void summary(PipelineStats s, double seconds) {
        out.printf(
                Locale.ROOT,
                "%,d rows written in %.2f s (%,.0f rows/s); %,d skipped, %,d dead-lettered, %,d"
                        + " filtered%n",
                s.rowsWritten(),
                seconds,
                s.rowsWritten() / Math.max(seconds, 1e-9),
                s.recordsSkipped(),
                s.recordsDeadLettered(),
                s.recordsFiltered());
        double ratio =
                s.wireBytesWritten() == 0 ? 1.0 : (double) s.bytesWritten() / s.wireBytesWritten();
        out.printf(
                Locale.ROOT,
                "%ssent %s on the wire for %s of Native data (%.2fx compression) in %,d batch%s%s%n",
                s.sourceBytesRead() >= 0
                        ? "read " + bytes(s.sourceBytesRead()) + " of input; "
                        : "",
                bytes(s.wireBytesWritten()),
                bytes(s.bytesWritten()),
                ratio,
                s.batchesWritten(),
                s.batchesWritten() == 1 ? "" : "es",
                // each batch is an INSERT, and each INSERT a part per table partition it touches:
                // the server's merge work to come (docs/pipeline.md, "Batch sizes")
                s.batchesWritten() > 1
                        ? String.format(
                                Locale.ROOT,
                                " of %,d rows on average",
                                s.rowsWritten() / s.batchesWritten())
                        : "");
        delivery(s.rowsWritten(), s.retries(), s.delivery());
    }

    /**
     * What a plain "rows written" does not say: INSERTs sent again and why, those looked up on the
     * server and what it said, and — when the table may hold more rows of this run than written —
     * how many, with the source range and query ids of each INSERT concerned. Silent when every
     * INSERT simply succeeded.
     */
    private void delivery(long written, long retries, PipelineStats.Delivery d) {
        List<String> parts = new ArrayList<>();
        if (retries > 0) {
            List<String> why = new ArrayList<>();
            d.retries().forEach((reason, n) -> why.add(n + " " + reason.replace('_', ' ')));
            parts.add(
                    inserts(retries)
                            + " sent again"
                            + (why.isEmpty() ? "" : " (" + String.join(", ", why) + ")"));
        }
        if (d.checked() > 0) {
            parts.add(
                    String.format(
                            Locale.ROOT,
                            "outcome checked for %s (interrupted, or replayed after a restart):"
                                    + " %,d written (found in the server's log, not sent again), %,d"
                                    + " not written, %,d unknown",
                            inserts(d.checked()),
                            d.checkedWritten(),
                            d.checkedNotWritten(),
                            d.checkedUnknown()));
        }
        if (d.rowsAlreadyWritten() > 0) {
            parts.add(
                    String.format(
                            Locale.ROOT,
                            "%,d rows of replayed batches were already written by an earlier run"
                                    + " (found in the server's query log, not sent again)",
                            d.rowsAlreadyWritten()));
        }
        if (!parts.isEmpty()) {
            out.println(String.join("; ", parts));
        }
        long least = written + d.rowsDuplicated();
        long most = least + d.rowsPossiblyDuplicated() + d.rowsUnresolved();
        if (least == written && most == written) {
            return;
        }
        List<String> why = new ArrayList<>();
        if (d.rowsDuplicated() > 0) {
            why.add(String.format(Locale.ROOT, "%,d rows written twice", d.rowsDuplicated()));
        }
        if (d.rowsPossiblyDuplicated() > 0) {
            why.add(
                    String.format(
                            Locale.ROOT,
                            "%,d rows sent again after their outcome stayed unknown, so maybe"
                                    + " twice",
                            d.rowsPossiblyDuplicated()));
        }
        if (d.rowsUnresolved() > 0) {
            why.add(
                    String.format(
                            Locale.ROOT,
                            "%,d rows of INSERTs whose outcome is unknown, maybe written, maybe"
                                    + " not",
                            d.rowsUnresolved()));
        }
        out.println(
                (least == most
                                ? String.format(
                                        Locale.ROOT, "the table got %,d rows from this run", least)
                                : String.format(
                                        Locale.ROOT,
                                        "the table got between %,d and %,d rows from this run",
                                        least,
                                        most))
                        + ": "
                        + String.join("; ", why));
        for (String note : d.notes()) {
            out.println("  " + note);
        }
    }

    private static String inserts(long n) {
        return String.format(Locale.ROOT, "%,d INSERT%s", n, n == 1 ? "" : "s");
    }

    static String bytes(long n) {
        if (n < 0) {
            return "?";
        }
        if (n < 10_000) {
            return n + " B";
        }
        if (n < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f kB", n / 1e3);
        }
        if (n < 10_000_000_000L) {
            return String.format(Locale.ROOT, "%.1f MB", n / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f GB", n / 1e9);
    }
}
