package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/** What the end-to-end rigs print: medians with their range, and where the run happened. */
final class Summaries {
    private Summaries() {}

    /** The median of {@code values} (NaNs ignored), or NaN when there is none. */
    static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** {@code median [min-max]} in {@code format}, or "-" without values. */
    static String stat(double[] values, String format) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, format, median(v))
                + " ["
                + String.format(Locale.ROOT, format, v[0])
                + "-"
                + String.format(Locale.ROOT, format, v[v.length - 1])
                + "]";
    }

    /** The machine's name, for the provenance of a result. */
    static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return String.valueOf(System.getenv("HOSTNAME"));
        }
    }
}
