package dev.sluice.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Live progress: refreshed in place on a terminal, a plain line every few seconds otherwise (logs
 * and CI stay readable).
 */
final class ProgressLine {
    private static final long TTY_INTERVAL_NANOS = 200_000_000L;
    private static final long PLAIN_INTERVAL_NANOS = 5_000_000_000L;

    private final PrintStream out;
    private final boolean terminal;
    private final long total;
    private final long started = System.nanoTime();
    private long lastPrint = started;
    private int lastWidth;

    ProgressLine(PrintStream out, boolean terminal, long total) {
        this.out = out;
        this.terminal = terminal;
        this.total = total;
    }

    static boolean stdoutIsTerminal() {
        return System.console() != null && System.getenv("SLUICE_PLAIN_PROGRESS") == null;
    }

    /** Called often; prints only when the interval has passed. */
    void update(long rows, long bytes) {
        long now = System.nanoTime();
        if (now - lastPrint < (terminal ? TTY_INTERVAL_NANOS : PLAIN_INTERVAL_NANOS)) {
            return;
        }
        lastPrint = now;
        String line = describe(rows, bytes, now);
        if (terminal) {
            int pad = Math.max(0, lastWidth - line.length());
            out.print("\r" + line + " ".repeat(pad));
            lastWidth = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Ends the live line so the summary starts on a fresh one. */
    void finish() {
        if (terminal && lastWidth > 0) {
            out.print("\r" + " ".repeat(lastWidth) + "\r");
            out.flush();
        }
    }

    private String describe(long rows, long bytes, long now) {
        double seconds = Math.max(1e-9, (now - started) / 1e9);
        double rate = rows / seconds;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%,d rows", rows));
        if (total > 0) {
            sb.append(String.format(Locale.ROOT, " (%.0f%%)", 100.0 * rows / total));
        }
        sb.append(
                String.format(
                        Locale.ROOT, "  %,.0f rows/s  %.1f MB/s", rate, bytes / seconds / 1e6));
        if (total > 0 && rate > 0 && rows < total) {
            sb.append(String.format(Locale.ROOT, "  ETA %.0fs", (total - rows) / rate));
        }
        return sb.toString();
    }
}
