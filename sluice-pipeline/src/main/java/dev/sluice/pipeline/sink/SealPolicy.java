package dev.sluice.pipeline.sink;

import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;

/**
 * When an open batch is sealed by size or age: at {@code maxRows} rows, at {@code maxBytes} bytes,
 * or {@code lingerNanos} after its first row. Partition end, replay boundaries, backpressure and
 * drain seal too, decided by the pipeline thread.
 */
public record SealPolicy(int maxRows, long maxBytes, long lingerNanos) {
    public SealPolicy {
        if (maxRows < 1) {
            throw new IllegalArgumentException("batch.max_rows must be at least 1");
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("batch.max_bytes must be at least 1");
        }
        if (lingerNanos < 0) {
            throw new IllegalArgumentException("batch.linger must not be negative");
        }
    }

    public static SealPolicy of(BatchSpec spec) {
        return new SealPolicy(spec.maxRows(), spec.maxBytes(), spec.linger().toNanos());
    }

    /** The size reason to seal a batch of {@code rows} rows and {@code bytes} bytes, or null. */
    public SealReason bySize(int rows, long bytes) {
        if (rows >= maxRows) {
            return SealReason.ROWS;
        }
        if (bytes >= maxBytes) {
            return SealReason.BYTES;
        }
        return null;
    }

    /** When a batch that got its first row at {@code openedNanos} must be sealed. */
    public long lingerDeadline(long openedNanos) {
        return openedNanos + lingerNanos;
    }
}
