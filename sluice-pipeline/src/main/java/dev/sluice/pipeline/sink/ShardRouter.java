package dev.sluice.pipeline.sink;

import java.util.List;

/**
 * Picks a batch's shard from its partition and first position, weighted by the shards' weights. The
 * choice depends on nothing else, so a batch replayed after a restart goes to the shard it went to
 * before (its token includes the shard; property 2).
 */
public final class ShardRouter {
    private final long[] cumulative;
    private final long total;

    public ShardRouter(List<Integer> weights) {
        if (weights.isEmpty()) {
            throw new IllegalArgumentException("no shards");
        }
        cumulative = new long[weights.size()];
        long sum = 0;
        for (int i = 0; i < weights.size(); i++) {
            if (weights.get(i) < 1) {
                throw new IllegalArgumentException("shard weight must be ≥ 1");
            }
            sum += weights.get(i);
            cumulative[i] = sum;
        }
        total = sum;
    }

    public int shards() {
        return cumulative.length;
    }

    public int shardFor(String partition, long firstPosition) {
        if (cumulative.length == 1) {
            return 0;
        }
        long h = mix(DedupToken.fnv1a64(partition) ^ mix(firstPosition));
        long slot = Long.remainderUnsigned(h, total);
        for (int i = 0; i < cumulative.length; i++) {
            if (slot < cumulative[i]) {
                return i;
            }
        }
        throw new AssertionError("slot " + slot + " beyond total weight " + total);
    }

    /** A 64-bit finalizer (splitmix64): spreads consecutive positions over the shards. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
