package dev.sluice.cli;

import dev.sluice.pipeline.config.ConfigDefaults;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import java.time.Duration;

/**
 * How {@code sluice load} sizes its batches when not told. A file is all there at once: its batches
 * are sealed by size alone, at the block size clickhouse-client sends ({@code
 * max_insert_block_size}, 1,048,576 rows), so a load makes as few parts as clickhouse-client does —
 * every extra part is merge work the server does later — capped in bytes at the server's own {@code
 * min_insert_block_size_bytes} (256 MiB), and lower when the JVM's heap could not hold the
 * in-flight budget those batches need (docs/pipeline.md, the sizing rule). Standard input may be a
 * stream (a {@code tail -f} piped in): it keeps the streaming defaults, linger included.
 */
final class LoadBatching {
    /** clickhouse-client's block size, {@code max_insert_block_size}'s default. */
    static final int FILE_MAX_ROWS = 1_048_576;

    /** The server's {@code min_insert_block_size_bytes} default: it squashes up to this. */
    static final long FILE_MAX_BYTES = 256L << 20;

    /** The least a heap-limited byte cap goes down to. */
    static final long MIN_BYTES = 16L << 20;

    /** The share of the maximum heap the in-flight budget may take. */
    static final double HEAP_SHARE = 0.5;

    /** Sealed by size only: a linger longer than any load. */
    static final Duration NO_LINGER = Duration.ofDays(365);

    private LoadBatching() {}

    /**
     * @param rows {@code --batch-rows}, or null
     * @param bytes {@code --batch-bytes} in bytes, or null
     * @param linger {@code --linger}, or null
     * @param slots {@code threads + shards × inflight_per_shard}: open and in-flight batches
     * @param maxHeap the JVM's maximum heap in bytes
     */
    static BatchSpec batch(
            boolean stdin, Integer rows, Long bytes, Duration linger, int slots, long maxHeap) {
        if (stdin) {
            return new BatchSpec(
                    rows != null ? rows : ConfigDefaults.BATCH_MAX_ROWS,
                    bytes != null ? bytes : ConfigDefaults.BATCH_MAX_BYTES,
                    linger != null ? linger : ConfigDefaults.BATCH_LINGER);
        }
        return new BatchSpec(
                rows != null ? rows : FILE_MAX_ROWS,
                bytes != null ? bytes : fileMaxBytes(slots, maxHeap),
                linger != null ? linger : NO_LINGER);
    }

    /**
     * 256 MiB, or less when the budget the sizing rule asks for {@code slots} batches of that size
     * ({@code slots × 2 × max_bytes / high}) would take more than half the heap; a whole MiB, at
     * least 16 MiB.
     */
    static long fileMaxBytes(int slots, long maxHeap) {
        double perSlot =
                maxHeap * HEAP_SHARE * ConfigDefaults.HIGH_WATERMARK / (2.0 * Math.max(1, slots));
        long mib = (long) (perSlot / (1 << 20));
        return Math.max(MIN_BYTES, Math.min(FILE_MAX_BYTES, mib << 20));
    }

    /** {@code none} (sealed by size only) or a duration. */
    static Duration parseLinger(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("none") || t.equalsIgnoreCase("off")) {
            return NO_LINGER;
        }
        return dev.sluice.pipeline.config.Units.parseDuration(t);
    }
}
