package dev.sluice.pipeline.source.file;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the files that appear after start in follow mode ({@code run}), for one of several readers.
 * Every reader resolves the inputs on its own, so ownership of a new file must not depend on what a
 * reader has seen: files of the start-up resolution belong to whoever was assigned them, and a file
 * found later belongs to reader {@code hash(path) mod readers}.
 */
public final class FollowScan {
    private final InputResolver resolver;
    private final Set<String> initial;
    private final int reader;
    private final int readers;
    private final long intervalNanos;
    private final Set<String> adopted = new HashSet<>();

    /**
     * @param initial the names of every file of the start-up resolution, whichever reader reads it
     * @param interval how often to look for new files and for growth
     */
    public FollowScan(
            InputResolver resolver,
            Set<String> initial,
            int reader,
            int readers,
            Duration interval) {
        this.resolver = resolver;
        this.initial = Set.copyOf(initial);
        this.reader = reader;
        this.readers = readers;
        this.intervalNanos = interval.toNanos();
    }

    long intervalNanos() {
        return intervalNanos;
    }

    /** Files this reader has not seen before and now owns. */
    List<InputFile> newFiles() throws IOException {
        List<InputFile> found = new ArrayList<>();
        for (InputFile f : resolver.resolve(true)) {
            if (!initial.contains(f.name())
                    && Math.floorMod(f.name().hashCode(), readers) == reader
                    && adopted.add(f.name())) {
                found.add(f);
            }
        }
        return found;
    }
}
