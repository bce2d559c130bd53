package dev.sluice.pipeline.source.framing;

/**
 * Finds where records end in a byte stream that arrives in pieces. A framer keeps the state of the
 * record in progress between calls, so a record split across reads is scanned once.
 *
 * <p>Every record ends at a {@code '\n'}; the reader strips a {@code '\r'} before it (CRLF).
 */
public interface Framer {

    /**
     * Continues the record in progress over {@code buf[from, to)}.
     *
     * @return the index of the {@code '\n'} that ends it (the framer is then ready for the next
     *     record), or -1 when the record goes on past {@code to}
     */
    int findEnd(byte[] buf, int from, int to);

    /** Newlines inside the record that ended last (quoted CSV fields), for line numbers. */
    int innerNewlines();

    /** The record in progress cannot end at the end of input (an open quoted field). */
    boolean open();

    /** Forgets the record in progress: the next byte starts a new record. */
    void reset();

    /** NDJSON and TSV: a record is a line (their values escape newlines). */
    static Framer lines() {
        return new LineFramer();
    }

    /** CSV (RFC 4180): a quoted field may hold delimiters, quotes ({@code ""}) and newlines. */
    static Framer csv(char delimiter) {
        return new CsvFramer(delimiter);
    }
}
