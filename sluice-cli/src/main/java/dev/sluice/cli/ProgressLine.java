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
    private final long totalRows;
    private final long started = System.nanoTime();
    private long lastPrint = started;
    private int lastWidth;

    /**
     * @param totalRows rows expected, for % and ETA when input bytes are unknown; 0 if unknown
     */
    ProgressLine(PrintStream out, boolean terminal, long totalRows) {
        this.out = out;
        this.terminal = terminal;
        this.totalRows = totalRows;
    }

    static boolean stdoutIsTerminal() {
        return System.console() != null && System.getenv("SLUICE_PLAIN_PROGRESS") == null;
    }

    /**
     * Called often; prints only when the interval has passed.
     *
     * @param bytes input bytes read (for MB/s and, with {@code bytesTotal}, % and ETA)
     * @param bytesTotal input size, or ≤ 0 when unknown
     */
    void update(long rows, long bytes, long bytesTotal) {
        long now = System.nanoTime();
        if (now - lastPrint < (terminal ? TTY_INTERVAL_NANOS : PLAIN_INTERVAL_NANOS)) {
            return;
        }
        lastPrint = now;
        String line = describe(rows, bytes, bytesTotal, now);
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

    private String describe(long rows, long bytes, long bytesTotal, long now) {
        double seconds = Math.max(1e-9, (now - started) / 1e9);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%,d rows", rows));
        double fraction = -1;
        if (bytesTotal > 0) {
            fraction = Math.min(1.0, (double) bytes / bytesTotal);
        } else if (totalRows > 0) {
            fraction = Math.min(1.0, (double) rows / totalRows);
        }
        if (fraction >= 0) {
            sb.append(String.format(Locale.ROOT, " (%.0f%%)", 100 * fraction));
        }
        sb.append(String.format(Locale.ROOT, "  %,.0f rows/s", rows / seconds));
        if (bytes > 0) {
            sb.append(String.format(Locale.ROOT, "  %.1f MB/s", bytes / seconds / 1e6));
        }
        if (fraction > 0 && fraction < 1) {
            sb.append(
                    String.format(Locale.ROOT, "  ETA %.0fs", seconds * (1 - fraction) / fraction));
        }
        return sb.toString();
    }
}
