package dev.sluice.pipeline.source;

import java.util.Arrays;

/**
 * Raw records a source hands to the pipeline, all from one partition, reused from poll to poll:
 * record {@code i} is {@code data[start[i], end[i])} (without its line terminator), found at {@code
 * position[i]} of its partition.
 *
 * <p>A position is what the source resumes from: a byte offset for files, a sequence number for the
 * generator, an offset for Kafka. {@link #endPosition} is where reading continues after the last
 * record. Positions only grow within a partition.
 *
 * <p>Fields are public on purpose: the hot path reads them in tight loops. Only the source that
 * fills a batch writes them.
 */
public final class RecordBatch {
    /** The source's name, for dead letters and messages (e.g. {@code file}). */
    public String source = "";

    /** The partition the records come from (a file path, a Kafka partition, "" if one). */
    public String partition = "";

    public byte[] data = new byte[1 << 16];
    public int count;
    public int[] start = new int[256];
    public int[] end = new int[256];
    public long[] position = new long[256];

    /** 1-based line number of each record, or 0 when lines do not apply. */
    public long[] line = new long[256];

    /** Where reading resumes after the last record of this batch. */
    public long endPosition;

    /** The batch starts at the beginning of its partition (its first record may be a header). */
    public boolean partitionStart;

    /** No more records will come from this partition. */
    public boolean partitionEnd;

    /** Drops the records, keeping the arrays. */
    public void clear() {
        count = 0;
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
        count++;
    }

    public int length(int i) {
        return end[i] - start[i];
    }

    /** Where record {@code i} is, for messages: {@code partition:line N (byte B)}. */
    public String describe(int i) {
        StringBuilder sb = new StringBuilder();
        sb.append(partition.isEmpty() ? source : partition);
        if (line[i] > 0) {
            sb.append(":").append(line[i]);
        }
        sb.append(" (position ").append(position[i]).append(')');
        return sb.toString();
    }
}
