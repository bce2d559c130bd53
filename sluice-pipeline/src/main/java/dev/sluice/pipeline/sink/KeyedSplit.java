package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.sort.ShardKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * Sends each row of a batch to the shard its sharding key picks ({@code sink.clickhouse.shard_by}),
 * as a Distributed table with that key would: the batch becomes one part per shard that has rows,
 * each a batch of its own for that shard's writers, with the batch's token and {@code /k<shard>}
 * (deterministic: the parts follow from the rows, which the recorded boundaries fix — property 2).
 * The batch is written when every part is, abandoned when any part is (its records are then read
 * again, and parts already written are dropped by a deduplicating server or written again).
 *
 * <p>A batch whose rows all go to one shard is sent as it is (no copy); otherwise each part's rows
 * are copied into a block of its own, whose capacity counts against the in-flight budget until the
 * part is settled (property 3). Used by the pipeline thread that submits.
 */
final class KeyedSplit {
    private final ShardKey key;
    private final LongConsumer acquire;
    private final LongConsumer release;
    private int[] shardOfRow = new int[0];

    KeyedSplit(ShardKey key, LongConsumer acquire, LongConsumer release) {
        this.key = key;
        this.acquire = acquire;
        this.release = release;
    }

    /** The parts of {@code batch}, one per shard with rows, in shard order. */
    List<SealedBatch> split(SealedBatch batch) {
        Block block = batch.block();
        int rows = block.rows();
        shardOfRow = key.select(block, batch.nowSeconds(), shardOfRow);
        int shards = key.shards();
        int[] counts = new int[shards];
        for (int r = 0; r < rows; r++) {
            counts[shardOfRow[r]]++;
        }
        int used = 0;
        for (int c : counts) {
            used += c > 0 ? 1 : 0;
        }
        Parts owner = new Parts(batch, Math.max(used, 1), release);
        List<SealedBatch> parts = new ArrayList<>(used);
        if (used <= 1) {
            int shard = rows == 0 ? 0 : shardOfRow[0];
            parts.add(new SealedBatch(batch, owner, block, batch.absentRows(), shard, 0, null));
            return parts;
        }
        for (int s = 0; s < shards; s++) {
            if (counts[s] == 0) {
                continue;
            }
            int[] picked = new int[counts[s]];
            int n = 0;
            for (int r = 0; r < rows; r++) {
                if (shardOfRow[r] == s) {
                    picked[n++] = r;
                }
            }
            Block part = copy(block, picked);
            AbsentRows absent = copy(batch.absentRows(), picked);
            long bytes = part.capacityBytes();
            acquire.accept(bytes);
            parts.add(new SealedBatch(batch, owner, part, absent, s, bytes, picked));
        }
        return parts;
    }

    private static Block copy(Block from, int[] rows) {
        List<String> names = new ArrayList<>(from.columnCount());
        for (Column c : from.columns()) {
            names.add(c.name());
        }
        Block to = Block.forHeader(names, from.typeNames());
        for (int c = 0; c < from.columnCount(); c++) {
            to.column(c).appendRowsFrom(from.column(c), rows, 0, rows.length);
        }
        return to;
    }

    private static AbsentRows copy(AbsentRows from, int[] rows) {
        AbsentRows to = new AbsentRows(from.columns());
        for (int c = 0; c < from.columns(); c++) {
            if (!from.anyAbsent(c)) {
                continue;
            }
            for (int i = 0; i < rows.length; i++) {
                if (from.isAbsent(c, rows[i])) {
                    to.markAbsent(c, i);
                }
            }
        }
        return to;
    }

    /** Settles the batch once every part is settled; gives back the parts' own bytes. */
    private static final class Parts implements BatchOwner {
        private final SealedBatch batch;
        private final AtomicInteger left;
        private final LongConsumer release;
        private volatile boolean abandoned;

        Parts(SealedBatch batch, int parts, LongConsumer release) {
            this.batch = batch;
            this.left = new AtomicInteger(parts);
            this.release = release;
        }

        @Override
        public void settled(SealedBatch part) {
            if (part.outcome() != SealedBatch.Outcome.WRITTEN) {
                abandoned = true;
                if (part.failure() != null) {
                    batch.fail(part.failure(), part.failureCause());
                }
            }
            if (part.bytes() > 0) {
                release.accept(part.bytes());
            }
            if (left.decrementAndGet() == 0) {
                batch.settle(
                        abandoned ? SealedBatch.Outcome.ABANDONED : SealedBatch.Outcome.WRITTEN);
            }
        }
    }
}
