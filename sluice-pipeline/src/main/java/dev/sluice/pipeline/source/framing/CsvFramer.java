package dev.sluice.pipeline.source.framing;

/**
 * RFC 4180 record boundaries: a newline ends a record unless it is inside a quoted field. A quote
 * opens a quoted field only at the start of a field (as ClickHouse reads CSV), so a stray quote in
 * the middle of an unquoted value is just a character; {@code ""} inside a quoted field is an
 * escaped quote. Text after a closing quote is tolerated as part of the field (the decoder judges
 * it).
 */
final class CsvFramer implements Framer {
    private static final int FIELD_START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;

    /** Inside a quoted field, just after a quote: it closed the field, or starts {@code ""}. */
    private static final int QUOTE_IN_QUOTED = 3;

    private final byte delimiter;
    private int state = FIELD_START;
    private int newlines;
    private int lastNewlines;

    CsvFramer(char delimiter) {
        if (delimiter > 0x7F || delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
            throw new IllegalArgumentException(
                    "the CSV delimiter must be one ASCII character other than a quote or newline");
        }
        this.delimiter = (byte) delimiter;
    }

    @Override
    public int findEnd(byte[] buf, int from, int to) {
        int s = state;
        for (int i = from; i < to; i++) {
            byte c = buf[i];
            if (s == QUOTED) {
                if (c == '"') {
                    s = QUOTE_IN_QUOTED;
                } else if (c == '\n') {
                    newlines++;
                }
            } else if (c == '\n') {
                state = FIELD_START;
                lastNewlines = newlines;
                newlines = 0;
                return i;
            } else if (c == delimiter) {
                s = FIELD_START;
            } else if (c == '"' && (s == FIELD_START || s == QUOTE_IN_QUOTED)) {
                s = QUOTED;
            } else {
                s = UNQUOTED;
            }
        }
        state = s;
        return -1;
    }

    @Override
    public int innerNewlines() {
        return lastNewlines;
    }

    @Override
    public boolean open() {
        return state == QUOTED;
    }

    @Override
    public void reset() {
        state = FIELD_START;
        newlines = 0;
        lastNewlines = 0;
    }
}
