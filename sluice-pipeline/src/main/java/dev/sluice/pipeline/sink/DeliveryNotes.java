package dev.sluice.pipeline.sink;

import java.util.ArrayList;
import java.util.List;

/**
 * The INSERTs a user must know about at the end — written twice, maybe written twice, outcome
 * unknown — one line each with the batch's source range and query_ids, so the extra rows can be
 * found. Shared by the writers; the first {@value #MAX_LINES} are kept, the rest counted.
 */
public final class DeliveryNotes {
    static final int MAX_LINES = 20;

    private final List<String> lines = new ArrayList<>();
    private int dropped;

    synchronized void add(String line) {
        if (lines.size() < MAX_LINES) {
            lines.add(line);
        } else {
            dropped++;
        }
    }

    /** The lines so far, plus one saying how many more there were. */
    public synchronized List<String> lines() {
        List<String> out = new ArrayList<>(lines);
        if (dropped > 0) {
            out.add("(" + dropped + " more)");
        }
        return List.copyOf(out);
    }
}
