package dev.sluice.pipeline.checkpoint;

/**
 * The recorded boundaries of one sealed batch: the positions of its first and last record in its
 * partition, the shard it went to, and the batch's {@code now()}. Together with the pipeline, run
 * and source names they make the batch's deduplication token (property 2); the {@code now()} makes
 * a replay compute the same DEFAULTs and partition keys as the original (a server that compares
 * blocks, like ReplicatedMergeTree on 18.16, drops the replay only if it is identical).
 *
 * @param nowSeconds the batch's {@code now()} in epoch seconds, or -1 when not recorded (a ledger
 *     written before it was kept): a replay then takes its own
 * @param group for a batch that gathered rows of several partitions: {@code
 *     <hash>.<members>[@<run>][~a]}, the hash of every member's partition and range and how many
 *     members there are — the same in each member's entry, so a replay that owns them all
 *     re-creates the batch whole — then the run of the group's token (members may carry different
 *     runs: with Kafka each partition keeps the run of the instance that first committed it, so the
 *     group's run is recorded with it; absent in entries written before it was kept) and the mark
 *     of a member sent alone; null for a batch of one partition
 */
public record LedgerEntry(
        String partition, long first, long last, int shard, long nowSeconds, String group) {
    public LedgerEntry {
        if (last < first) {
            throw new IllegalArgumentException("last " + last + " < first " + first);
        }
    }

    public LedgerEntry(String partition, long first, long last, int shard) {
        this(partition, first, last, shard, -1, null);
    }

    public LedgerEntry(String partition, long first, long last, int shard, long nowSeconds) {
        this(partition, first, last, shard, nowSeconds, null);
    }

    /**
     * Appended to the group of a member sent alone (docs/adr/0011): its replays look the group up
     * and send the member alone again, and no replay waits for it or re-creates the group whole —
     * which would write the rows of members already sent alone once more.
     */
    public static final String ALONE = "~a";

    /** How many partitions the entry's batch gathered (1 without a group). */
    public int members() {
        if (group == null) {
            return 1;
        }
        String g = baseGroup();
        return Integer.parseInt(g.substring(g.indexOf('.') + 1));
    }

    /** True for a member of a group that was sent alone. */
    public boolean sentAlone() {
        return group != null && group.endsWith(ALONE);
    }

    /** Separates the group's run from its hash and size in {@link #group}. */
    private static final char RUN = '@';

    /**
     * The recorded group of a new batch of several partitions: its hash and size ({@code
     * DedupToken.groupOf}) with the run of its token, so that a member replayed alone looks the
     * group up under the group's token whatever run the member's partition carries (docs/adr/0011).
     * A run that could not travel in the recorded forms (only letters, digits, {@code _ - .}) is
     * left out: the replay then falls back to its member's run.
     */
    public static String groupWithRun(String group, String run) {
        return run != null && run.matches("[A-Za-z0-9_.-]+") ? group + RUN + run : group;
    }

    /** The group's hash and size, without its run or the mark of a member sent alone. */
    public String baseGroup() {
        if (group == null) {
            return null;
        }
        String g = sentAlone() ? group.substring(0, group.length() - ALONE.length()) : group;
        int at = g.indexOf(RUN);
        return at < 0 ? g : g.substring(0, at);
    }

    /**
     * The run of the group's token; null without a group or when the entry was written before it
     * was recorded (the member's own run is then the best guess).
     */
    public String groupRun() {
        if (group == null) {
            return null;
        }
        String g = sentAlone() ? group.substring(0, group.length() - ALONE.length()) : group;
        int at = g.indexOf(RUN);
        return at < 0 ? null : g.substring(at + 1);
    }

    /** This entry as a member of its group sent alone. */
    public LedgerEntry alone() {
        return sentAlone() || group == null
                ? this
                : new LedgerEntry(partition, first, last, shard, nowSeconds, group + ALONE);
    }

    /** True when the record at {@code position} belongs to this batch's range. */
    public boolean covers(long position) {
        return position >= first && position <= last;
    }

    /** True when the two ranges share a position. */
    public boolean overlaps(LedgerEntry other) {
        return first <= other.last && other.first <= last;
    }
}
