package dev.sluice.pipeline.config;

import java.util.List;

/** "Did you mean": the allowed key nearest a misspelt one, by edit distance. */
final class Suggestions {
    private Suggestions() {}

    /** The nearest of {@code candidates} within a few edits of {@code word}, or null. */
    static String nearest(String word, List<String> candidates) {
        String best = null;
        int bestDistance = Math.max(2, word.length() / 3) + 1;
        for (String c : candidates) {
            int d = distance(word, c);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
