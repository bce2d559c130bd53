package dev.sluice.rigs;

import java.util.Arrays;
import java.util.Collection;

/**
 * Median, extremes and spread of one arm's repetitions: what every report table shows.
 *
 * @param spread {@code (max − min) / median}; 0 for one value
 */
public record Stats(int n, double median, double min, double max, double spread) {

    /** The statistics of {@code values} (nulls ignored), or null when there is none. */
    public static Stats of(Collection<? extends Number> values) {
        double[] v =
                values.stream()
                        .filter(x -> x != null && !Double.isNaN(x.doubleValue()))
                        .mapToDouble(Number::doubleValue)
                        .sorted()
                        .toArray();
        if (v.length == 0) {
            return null;
        }
        double median = median(v);
        double spread = median == 0 ? 0 : (v[v.length - 1] - v[0]) / Math.abs(median);
        return new Stats(v.length, median, v[0], v[v.length - 1], spread);
    }

    /** The median of sorted {@code v}. */
    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
