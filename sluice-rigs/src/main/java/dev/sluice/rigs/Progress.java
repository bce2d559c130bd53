package dev.sluice.rigs;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The run's progress on the terminal: rig, arm k of n, rep, the current rate and an ETA from the
 * repetitions done so far. Refreshed in place on a terminal; one line per update otherwise.
 */
public final class Progress {
    private final PrintStream out;
    private final boolean terminal;
    private String rig = "";
    private int arms;
    private int reps;
    private int done;
    private long rigStarted;
    private long lastPrint;
    private int lastWidth;
    private String current = "";

    public Progress(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A rig starts: {@code arms} arms × {@code reps} repetitions. */
    public synchronized void rig(String name, int arms, int reps) {
        endLine();
        this.rig = name;
        this.arms = arms;
        this.reps = reps;
        this.done = 0;
        this.rigStarted = System.nanoTime();
        out.printf(Locale.ROOT, "%s: %d arms × %d reps%n", name, arms, reps);
        out.flush();
    }

    /** The number of arms that will run (after the unsupported ones were recorded). */
    public synchronized void arms(int runnable) {
        this.arms = runnable;
        out.printf(Locale.ROOT, "%s: %d arms to run × %d reps%n", rig, runnable, reps);
    }

    /** Repetition {@code rep} of arm {@code k} (1-based) starts. */
    public synchronized void arm(int k, int rep, String label) {
        current =
                String.format(
                        Locale.ROOT, "%s arm %d/%d rep %d/%d [%s]", rig, k, arms, rep, reps, label);
        show(current, true);
    }

    /** A live rate within the current repetition. */
    public synchronized void rate(String phase, double rowsPerSecond) {
        show(
                String.format(
                        Locale.ROOT, "%s %s %,.0f rows/s%s", current, phase, rowsPerSecond, eta()),
                false);
    }

    /** The repetition ended with {@code summary}. */
    public synchronized void repDone(String summary) {
        done++;
        endLine();
        out.println(current + " " + summary + eta());
        out.flush();
    }

    /** A note between repetitions (an unsupported arm, a warning). */
    public synchronized void note(String line) {
        endLine();
        out.println(rig + ": " + line);
        out.flush();
    }

    private String eta() {
        int total = arms * reps;
        if (done == 0 || total == 0) {
            return "";
        }
        double perRep = (System.nanoTime() - rigStarted) / 1e9 / done;
        long seconds = Math.round(perRep * Math.max(0, total - done));
        return String.format(
                Locale.ROOT,
                "  (%d/%d done, ETA %dm%02ds)",
                done,
                total,
                seconds / 60,
                seconds % 60);
    }

    private void show(String line, boolean force) {
        long now = System.nanoTime();
        if (terminal) {
            if (!force && now - lastPrint < 200_000_000L) {
                return;
            }
            int pad = Math.max(0, lastWidth - line.length());
            out.print("\r" + line + " ".repeat(pad));
            lastWidth = line.length();
        } else {
            if (!force && now - lastPrint < 5_000_000_000L) {
                return;
            }
            out.println(line);
        }
        lastPrint = now;
        out.flush();
    }

    private void endLine() {
        if (terminal && lastWidth > 0) {
            out.print("\r" + " ".repeat(lastWidth) + "\r");
            lastWidth = 0;
        }
    }
}
