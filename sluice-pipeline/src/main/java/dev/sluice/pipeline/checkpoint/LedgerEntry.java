package dev.sluice.pipeline.checkpoint;

/**
 * The recorded boundaries of one sealed batch: the positions of its first and last record in its
 * partition, and the shard it went to. Together with the pipeline and source names they make the
 * batch's deduplication token (property 2).
 */
public record LedgerEntry(String partition, long first, long last, int shard) {
    public LedgerEntry {
        if (last < first) {
            throw new IllegalArgumentException("last " + last + " < first " + first);
        }
    }

    /** True when the record at {@code position} belongs to this batch's range. */
    public boolean covers(long position) {
        return position >= first && position <= last;
    }
}
