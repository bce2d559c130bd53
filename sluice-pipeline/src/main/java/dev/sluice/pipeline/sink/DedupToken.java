package dev.sluice.pipeline.sink;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code insert_deduplication_token} of a batch: {@code pipeline@run/source/partition/
 * first-last/shard} (property 2). It depends only on the batch's recorded boundaries and the run,
 * so a retry and a replay after a crash carry the same token. The run id is kept with the ledger in
 * the checkpoint directory, so it survives restarts of one job but differs between two jobs that
 * happen to read the same positions of the same partition names (a generator run twice, an input
 * loaded again with a fresh checkpoint directory) — which a deduplicating server would otherwise
 * drop as copies.
 *
 * <p>Names are reduced to {@code [A-Za-z0-9._:-]} plus {@code /} inside the partition; whenever
 * that changes a name, or a partition is longer than {@value #MAX_PARTITION_CHARS} characters, a
 * hash of the original is appended — two partitions must never share a token, or the server would
 * drop one of them as a duplicate.
 */
public final class DedupToken {
    static final int MAX_PARTITION_CHARS = 96;

    private DedupToken() {}

    public static String of(
            String pipeline,
            String run,
            String source,
            String partition,
            long first,
            long last,
            int shard) {
        return sanitize(pipeline, false, Integer.MAX_VALUE)
                + '@'
                + sanitize(run, false, Integer.MAX_VALUE)
                + '/'
                + sanitize(source, false, Integer.MAX_VALUE)
                + '/'
                + sanitize(partition, true, MAX_PARTITION_CHARS)
                + '/'
                + first
                + '-'
                + last
                + '/'
                + shard;
    }

    /**
     * The token of a batch that gathered several partitions: {@code pipeline@run/source/g<group>/
     * shard}, where the group ({@code <hash>.<members>}) hashes every member's partition and range.
     */
    public static String group(
            String pipeline, String run, String source, String group, int shard) {
        return sanitize(pipeline, false, Integer.MAX_VALUE)
                + '@'
                + sanitize(run, false, Integer.MAX_VALUE)
                + '/'
                + sanitize(source, false, Integer.MAX_VALUE)
                + "/g"
                + group
                + '/'
                + shard;
    }

    /**
     * The group of a batch of several partitions' ranges, given in the batch's (partition-name)
     * order: a hash of each partition and range, and how many there are.
     */
    public static String groupOf(List<LedgerEntry> members) {
        StringBuilder sb = new StringBuilder();
        for (LedgerEntry e : members) {
            sb.append(e.partition()).append('|').append(e.first()).append('|').append(e.last());
            sb.append(';');
        }
        return String.format("%016x", fnv1a64(sb.toString())) + "." + members.size();
    }

    static String sanitize(String name, boolean allowSlash, int maxChars) {
        StringBuilder sb = new StringBuilder(name.length());
        boolean changed = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok =
                    (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '.'
                            || c == '_'
                            || c == ':'
                            || c == '-'
                            || (allowSlash && c == '/');
            sb.append(ok ? c : '_');
            changed |= !ok;
        }
        if (sb.length() > maxChars) {
            sb.delete(0, sb.length() - maxChars); // the end of a path says most
            changed = true;
        }
        if (changed) {
            sb.append('~').append(Long.toHexString(fnv1a64(name)));
        }
        return sb.toString();
    }

    /** FNV-1a over the UTF-8 bytes: stable across JVMs and releases, unlike String.hashCode. */
    static long fnv1a64(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
