package dev.sluice.pipeline.source.framing;

import dev.sluice.pipeline.source.PolledRecords;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * Turns one partition's bytes into records: reads large chunks straight into the batch's {@code
 * data} and lets a {@link Framer} find the record ends, so a record costs no allocation — only its
 * three entries in the batch.
 *
 * <p>What was read beyond the last record handed out (the record in progress, or records left for
 * the next batch when one is full) stays where it is, in the batch's {@code data} after its last
 * record: when the same batch is polled again it is framed in place, and it moves only to make room
 * for the next read or into another batch. Reads are at most one chunk, so {@code data} stays near
 * two chunks plus the longest record.
 *
 * <p>Positions are byte offsets in the partition's (decompressed) stream; a record's position is
 * its first byte, and a batch's end position is where the next record starts. They do not depend on
 * how the input happens to be chunked.
 *
 * <p>Records the source must reject become error records ({@link PolledRecords#addError}):
 *
 * <ul>
 *   <li>longer than {@code maxRecordBytes}: no more of it is buffered; its first {@link
 *       #KEPT_PREFIX} bytes are kept, the rest is skipped up to the record's end;
 *   <li>the input fails (a truncated .gz, an I/O error): every whole record before the failure is
 *       handed out first, then the partial last record — possibly empty — carries the reason;
 *   <li>the input ends inside a quoted CSV field.
 * </ul>
 *
 * Empty lines are not records. A UTF-8 byte order mark at the start of the input is skipped.
 */
public final class RecordReader implements Closeable {
    /** How much of a too-long record is kept, to show in the dead-letter file. */
    public static final int KEPT_PREFIX = 1024;

    private final String source;
    private final String partition;
    private final ChunkInput input;
    private final Framer framer;
    private final int maxRecordBytes;
    private final int chunkBytes;

    // The rest: bytes read but not handed out, restLength of them at rest[restOffset], starting
    // at a record's start. They stay where the last read left them — in that batch's data, so a
    // batch polled again needs no copy — and only move when another batch comes.
    private byte[] rest = new byte[0];
    private int restOffset;
    private int restLength;
    private int restScanned;
    private long restPosition;
    private long line = 1;
    // Lines before the one `line` counts from, when reading started in the middle of the input
    // (a chunk): looked up only when a record's line is asked for. Null: `line` is absolute.
    private LongSupplier linesBefore;
    // A too-long record in progress keeps its first bytes in the buffer and drops the rest: the
    // bytes after the kept prefix sit `dropped` bytes further in the stream than their index says.
    private long dropped = -1;
    // Stream offset of data[0] during a read.
    private long base;
    private boolean bomUnchecked = true;
    private boolean atStart = true;
    private boolean inputEnded;
    private String failure;
    private boolean finished;

    /**
     * @param source the source's name, for {@link PolledRecords#source}
     * @param partition the partition's name, for {@link PolledRecords#partition}
     * @param chunkBytes how much to read at a time
     */
    public RecordReader(
            String source,
            String partition,
            ChunkInput input,
            Framer framer,
            int maxRecordBytes,
            int chunkBytes) {
        if (maxRecordBytes < 1 || chunkBytes < 1) {
            throw new IllegalArgumentException("maxRecordBytes and chunkBytes must be positive");
        }
        this.source = source;
        this.partition = partition;
        this.input = input;
        this.framer = framer;
        this.maxRecordBytes = maxRecordBytes;
        this.chunkBytes = chunkBytes;
    }

    /**
     * Fills {@code b} (cleared first) with at most {@code maxRecords} records. Returns the number
     * of records (error records included); 0 when no whole record is available yet. {@link
     * PolledRecords#partitionEnd} is set once the input is exhausted and every record handed out.
     *
     * @param waitNanos passed to the input's first read (a pipe may wait for data)
     */
    public int read(PolledRecords b, int maxRecords, long waitNanos) {
        b.clear();
        b.source = source;
        b.partition = partition;
        b.partitionStart = atStart;
        b.linesBefore = linesBefore;
        if (finished) {
            b.partitionEnd = true;
            b.endPosition = restPosition;
            return 0;
        }
        int start = restOffset;
        if (b.data != rest) {
            b.ensureDataCapacity(restLength + chunkBytes);
            System.arraycopy(rest, restOffset, b.data, 0, restLength);
            start = 0;
        }
        byte[] data = b.data;
        int filled = start + restLength;
        int scan = start + restScanned;
        base = restPosition - start;
        long wait = waitNanos;
        while (b.count < maxRecords) {
            if (bomUnchecked && (filled - start >= 3 || inputEnded)) {
                bomUnchecked = false;
                if (filled - start >= 3
                        && data[start] == (byte) 0xEF
                        && data[start + 1] == (byte) 0xBB
                        && data[start + 2] == (byte) 0xBF) {
                    start += 3;
                    scan = start;
                }
            }
            if (!bomUnchecked) {
                int end = scan < filled ? framer.findEnd(data, scan, filled) : -1;
                if (end >= 0) {
                    emit(b, data, start, end);
                    start = scan = end + 1;
                    continue;
                }
                scan = filled;
                // One byte of slack: a record of exactly the maximum may still get its '\r'.
                if (dropped >= 0 || filled - start > maxRecordBytes + 1) {
                    int keep = start + Math.min(KEPT_PREFIX, maxRecordBytes);
                    dropped = Math.max(dropped, 0) + (filled - keep);
                    filled = scan = keep;
                }
                if (inputEnded) {
                    endOfInput(b, data, start, filled);
                    start = filled;
                    break;
                }
                if (b.count > 0) {
                    break;
                }
            }
            // No record is handed out yet, so the record in progress may move to make room.
            if (data.length - filled < chunkBytes && start > 0) {
                System.arraycopy(data, start, data, 0, filled - start);
                filled -= start;
                scan -= start;
                base += start;
                start = 0;
            }
            if (data.length - filled < chunkBytes) {
                b.ensureDataCapacity(filled + chunkBytes);
                data = b.data;
            }
            int n;
            try {
                n = input.read(data, filled, chunkBytes, wait);
            } catch (IOException e) {
                inputEnded = true;
                failure = reason(e);
                continue;
            }
            wait = 0;
            if (n < 0) {
                inputEnded = true;
            } else if (n == 0) {
                break;
            } else {
                filled += n;
            }
        }
        rest = data;
        restOffset = start;
        restLength = filled - start;
        restScanned = scan - start;
        restPosition = base + start;
        b.endPosition = restPosition;
        if (b.count > 0) {
            atStart = false;
        }
        return b.count;
    }

    private void emit(PolledRecords b, byte[] data, int start, int end) {
        int to = end > start && data[end - 1] == '\r' ? end - 1 : end;
        long recordLine = line;
        if (line > 0) {
            line += 1 + framer.innerNewlines();
        }
        long length = to - start + Math.max(dropped, 0);
        if (dropped >= 0 || length > maxRecordBytes) {
            b.addError(
                    start,
                    start + (int) Math.min(length, Math.min(KEPT_PREFIX, maxRecordBytes)),
                    base + start,
                    recordLine,
                    "record of "
                            + length
                            + " bytes is longer than max_record_bytes ("
                            + maxRecordBytes
                            + "); its first bytes are kept");
            closeGap();
        } else if (to > start) {
            b.add(start, to, base + start, recordLine);
        }
    }

    private void endOfInput(PolledRecords b, byte[] data, int start, int filled) {
        if (failure != null) {
            b.addError(start, filled, base + start, line, failure);
        } else if (framer.open()) {
            b.addError(
                    start,
                    filled,
                    base + start,
                    line,
                    "the input ends inside a quoted field (a quote is not closed)");
        } else if (filled > start || dropped >= 0) {
            emit(b, data, start, filled);
        }
        closeGap();
        finished = true;
        b.partitionEnd = true;
    }

    /** The too-long record is handed out: what follows it is where its index says, plus the gap. */
    private void closeGap() {
        if (dropped >= 0) {
            base += dropped;
            dropped = -1;
        }
    }

    private static String reason(IOException e) {
        if (e instanceof EOFException) {
            return "truncated input: " + e.getMessage();
        }
        return "read error: " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /**
     * Continues from {@code target}, a record boundary at or after the current position (a
     * committed position to resume from). Line numbers are unknown from then on. When the input
     * ends before it, the next read reports that as an error record at {@code target}.
     */
    public void skipTo(long target) {
        skip(target);
        line = 0;
        linesBefore = null;
    }

    /**
     * Continues from {@code target} as {@link #skipTo} does, keeping line numbers: records from
     * there on count lines from 1, and their batches add {@code linesBefore} — the newlines before
     * {@code target}, which the caller may find only when a line is asked for ({@link
     * PolledRecords#line(int)}).
     */
    public void startAt(long target, LongSupplier linesBefore) {
        skip(target);
        line = 1;
        this.linesBefore = linesBefore;
    }

    private void skip(long target) {
        if (target < restPosition || dropped >= 0) {
            throw new IllegalStateException(
                    "cannot skip from "
                            + restPosition
                            + " to "
                            + target
                            + " in the middle of a record");
        }
        long restEnd = restPosition + restLength;
        if (target <= restEnd) {
            int drop = (int) (target - restPosition);
            restOffset += drop;
            restLength -= drop;
        } else {
            restLength = 0;
            long gap = target - restEnd;
            try {
                long skipped = input.skip(gap);
                if (skipped < gap) {
                    inputEnded = true;
                    failure =
                            "the input ends at byte "
                                    + (restEnd + skipped)
                                    + ", before the position "
                                    + target
                                    + " reading should resume from: was it truncated or replaced?";
                }
            } catch (IOException e) {
                inputEnded = true;
                failure = reason(e);
            }
        }
        restPosition = target;
        restScanned = 0;
        framer.reset();
        dropped = -1;
        bomUnchecked = false;
        atStart = false;
    }

    /** Every record has been handed out and the input is exhausted. */
    public boolean finished() {
        return finished;
    }

    /** Bytes of a record whose end has not been read yet are waiting. */
    public boolean hasPartialRecord() {
        return restLength > 0 || dropped >= 0;
    }

    /** How far into the partition's stream bytes have been read. */
    public long inputPosition() {
        return restPosition + restLength + Math.max(dropped, 0);
    }

    /** Bytes of the underlying input consumed (compressed bytes when compressed). */
    public long consumed() {
        return input.consumed();
    }

    @Override
    public void close() throws IOException {
        input.close();
    }
}
