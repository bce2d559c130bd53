package dev.sluice.pipeline.source;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A record copied out of a batch, for assertions. */
public record Rec(String partition, long position, long line, String text, String error) {

    public static Rec ok(long position, String text) {
        return new Rec(null, position, -1, text, null);
    }

    /** Copies the records of {@code b}. */
    public static List<Rec> of(PolledRecords b) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < b.count; i++) {
            out.add(
                    new Rec(
                            b.partition,
                            b.position[i],
                            b.line(i),
                            new String(b.data, b.start[i], b.length(i), StandardCharsets.UTF_8),
                            b.error[i]));
        }
        return out;
    }

    /** Without partition and line: what most framing assertions compare. */
    public Rec bare() {
        return new Rec(null, position, -1, text, error == null ? null : "error");
    }

    /** Reads a source to its end (polls until -1, at most {@code maxPolls} times). */
    public static List<Rec> drain(Source source, int maxRecords, int maxPolls) throws Exception {
        return drain(source, maxRecords, maxPolls, 0);
    }

    /** Reads a source to its end, each poll waiting up to {@code waitNanos}. */
    public static List<Rec> drain(Source source, int maxRecords, int maxPolls, long waitNanos)
            throws Exception {
        List<Rec> out = new ArrayList<>();
        PolledRecords b = new PolledRecords();
        for (int polls = 0; polls < maxPolls; polls++) {
            int n = source.poll(b, maxRecords, waitNanos);
            if (n < 0) {
                return out;
            }
            out.addAll(of(b));
        }
        throw new AssertionError("the source did not end within " + maxPolls + " polls");
    }
}
