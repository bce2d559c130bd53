package dev.sluice.pipeline.source;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Raw records a source hands to the pipeline, all from one partition, reused from poll to poll:
 * record {@code i} is {@code data[start[i], end[i])} (without its line terminator), found at {@code
 * position[i]} of its partition.
 *
 * <p>A position is what the source resumes from: a byte offset for files, a sequence number for the
 * generator, an offset for Kafka. {@link #endPosition} is where reading continues after the last
 * record. Positions only grow within a partition.
 *
 * <p>A source may also hand over records it could not read properly — longer than {@code
 * max_record_bytes}, cut short by a truncated or unreadable input, an unterminated quoted field:
 * such a record has a non-null {@link #error} (the reason) and holds what the source kept of its
 * bytes (at most a prefix). The runtime does not decode it; it applies the error policy to it
 * exactly as to a record the decoder rejects (property 4), so it is counted, skipped or
 * dead-lettered with its position. {@link #errors} counts them, so a poll without any costs one
 * comparison.
 *
 * <p>A poll may bring no records and still carry news: {@link #partitionEnd} with the final {@link
 * #endPosition} (trailing blank lines), or nothing at all when no data is available yet.
 *
 * <p>When a partition is resumed past its start and the decoder reads a header, the source first
 * delivers that header record (position 0) alone, in a poll flagged {@link #partitionStart} whose
 * {@link #endPosition} is the resume position; reading then continues from there.
 *
 * <p>Fields are public on purpose: the hot path reads them in tight loops. Only the source that
 * fills them writes them — {@code data} included: beyond the last record it may hold the source's
 * read-ahead, kept there for the next poll into the same {@code PolledRecords}.
 */
public final class PolledRecords {
    /** The source's name, for dead letters and messages (e.g. {@code file}). */
    public String source = "";

    /** The partition the records come from (a file path, a Kafka partition, "" if one). */
    public String partition = "";

    public byte[] data = new byte[1 << 16];
    public int count;
    public int[] start = new int[256];
    public int[] end = new int[256];
    public long[] position = new long[256];

    /**
     * 1-based line number of each record (the physical line it starts on), or 0 when lines do not
     * apply or are not known (a file resumed from a committed position) — counted from {@link
     * #linesBefore} when that is set: read them with {@link #line(int)}.
     */
    public long[] line = new long[256];

    /**
     * The lines before those {@link #line} counts, for a chunk of a file read from its middle
     * (found by counting newlines, only when a line is asked for: a message, a dead letter); null
     * when {@link #line} is absolute.
     */
    public LongSupplier linesBefore;

    /** Why the source rejects record {@code i} (see the class comment), or null for a good one. */
    public String[] error = new String[256];

    /** How many of these records have a non-null {@link #error}. */
    public int errors;

    /** Where reading resumes after the last of these records. */
    public long endPosition;

    /** The records start at the beginning of their partition (the first may be a header). */
    public boolean partitionStart;

    /** No more records will come from this partition. */
    public boolean partitionEnd;

    /**
     * Per-record metadata of message sources (Kafka: key, timestamp, headers), or null for sources
     * without any. Its entries follow the records' indexes.
     */
    public RecordMetadata meta;

    /** Drops the records, keeping the arrays. */
    public void clear() {
        count = 0;
        errors = 0;
        partitionStart = false;
        partitionEnd = false;
    }

    /** Makes room for one more record entry (not its bytes). */
    public void ensureRecordCapacity(int records) {
        if (records > start.length) {
            int n = Math.max(records, start.length * 2);
            start = Arrays.copyOf(start, n);
            end = Arrays.copyOf(end, n);
            position = Arrays.copyOf(position, n);
            line = Arrays.copyOf(line, n);
            error = Arrays.copyOf(error, n);
        }
    }

    /** Makes {@code data} at least {@code bytes} long, keeping its content. */
    public void ensureDataCapacity(int bytes) {
        if (bytes > data.length) {
            data = Arrays.copyOf(data, Math.max(bytes, data.length * 2));
        }
    }

    /** Appends a record entry for bytes already in {@code data}. */
    public void add(int from, int to, long pos, long lineNumber) {
        ensureRecordCapacity(count + 1);
        start[count] = from;
        end[count] = to;
        position[count] = pos;
        line[count] = lineNumber;
        error[count] = null;
        count++;
    }

    /** Appends a record the source rejects, with its reason (see the class comment). */
    public void addError(int from, int to, long pos, long lineNumber, String reason) {
        add(from, to, pos, lineNumber);
        error[count - 1] = reason;
        errors++;
    }

    public int length(int i) {
        return end[i] - start[i];
    }

    /** The 1-based line record {@code i} starts on, or 0 when unknown. */
    public long line(int i) {
        long l = line[i];
        if (l <= 0 || linesBefore == null) {
            return l;
        }
        long before = linesBefore.getAsLong();
        return before < 0 ? 0 : l + before; // -1: they could not be counted
    }

    /** Where record {@code i} is, for messages: {@code partition:line N (byte B)}. */
    public String describe(int i) {
        StringBuilder sb = new StringBuilder();
        sb.append(partition.isEmpty() ? source : partition);
        long l = line(i);
        if (l > 0) {
            sb.append(":").append(l);
        }
        sb.append(" (position ").append(position[i]).append(')');
        return sb.toString();
    }
}
