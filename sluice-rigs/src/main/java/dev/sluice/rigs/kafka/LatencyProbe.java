package dev.sluice.rigs.kafka;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.column.Column;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * End-to-end latency, produce → durable in ClickHouse: wraps the sink's connections (through the
 * runtime's {@code Factories.inserter}) and, when an INSERT is acknowledged, takes each row's Kafka
 * timestamp (the {@code _timestamp} column, epoch milliseconds, filled by the Kafka source) from
 * the block just written. Counts only while recording (the window); 1 ms resolution up to a minute,
 * longer latencies in the last bucket.
 */
final class LatencyProbe implements UnaryOperator<BlockInserter> {
    static final String COLUMN = "_timestamp";
    private static final int MAX_MS = 60_000;

    private final long[] counts = new long[MAX_MS + 1];
    private long total;
    private volatile boolean recording;

    void recording(boolean on) {
        recording = on;
    }

    @Override
    public BlockInserter apply(BlockInserter inner) {
        return new BlockInserter() {
            @Override
            public InsertResult insert(
                    String table, Block block, Map<String, String> settings, String queryId) {
                InsertResult r = inner.insert(table, block, settings, queryId);
                if (recording) {
                    record(block, System.currentTimeMillis());
                }
                return r;
            }

            @Override
            public ServerInfo server() {
                return inner.server();
            }

            @Override
            public boolean isOpen() {
                return inner.isOpen();
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }

    private synchronized void record(Block block, long ackMillis) {
        Column ts = block.column(COLUMN);
        for (int r = 0; r < block.rows(); r++) {
            long ms = ackMillis - ts.getLong(r);
            counts[(int) Math.max(0, Math.min(MAX_MS, ms))]++;
        }
        total += block.rows();
    }

    synchronized long rows() {
        return total;
    }

    /** The {@code p}-quantile in seconds (0 < p ≤ 1), or null with nothing recorded. */
    synchronized Double quantile(double p) {
        if (total == 0) {
            return null;
        }
        long rank = (long) Math.ceil(p * total);
        long seen = 0;
        for (int ms = 0; ms < counts.length; ms++) {
            seen += counts[ms];
            if (seen >= rank) {
                return ms / 1000.0;
            }
        }
        return MAX_MS / 1000.0;
    }
}
