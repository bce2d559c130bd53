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
 *
 * <p>Each row's latency is also split where its INSERT began: {@link Part#BEFORE_INSERT} (in Kafka,
 * in the consumer, in the open batch until its linger or size sealed it, the commit of its
 * boundaries, the writer's queue) and {@link Part#INSERT} (encoding, sending, the server's work,
 * the acknowledgement; retries included) — so a p99 over target says which side it is on.
 */
final class LatencyProbe implements UnaryOperator<BlockInserter> {
    static final String COLUMN = "_timestamp";
    private static final int MAX_MS = 60_000;

    /** Which span of a row's latency. */
    enum Part {
        /** Produce timestamp → acknowledgement. */
        TOTAL,
        /** Produce timestamp → the start of the INSERT that carried the row. */
        BEFORE_INSERT,
        /** The start of the INSERT → its acknowledgement. */
        INSERT
    }

    private final long[][] counts = new long[Part.values().length][MAX_MS + 1];
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
                long started = System.currentTimeMillis();
                InsertResult r = inner.insert(table, block, settings, queryId);
                if (recording) {
                    record(block, started, System.currentTimeMillis());
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

    synchronized void record(Block block, long startMillis, long ackMillis) {
        Column ts = block.column(COLUMN);
        long[] all = counts[Part.TOTAL.ordinal()];
        long[] before = counts[Part.BEFORE_INSERT.ordinal()];
        int rows = block.rows();
        for (int r = 0; r < rows; r++) {
            long produced = ts.getLong(r);
            all[bucket(ackMillis - produced)]++;
            before[bucket(startMillis - produced)]++;
        }
        counts[Part.INSERT.ordinal()][bucket(ackMillis - startMillis)] += rows;
        total += rows;
    }

    private static int bucket(long ms) {
        return (int) Math.max(0, Math.min(MAX_MS, ms));
    }

    synchronized long rows() {
        return total;
    }

    /** The {@code p}-quantile in seconds (0 < p ≤ 1) of the whole latency, or null. */
    Double quantile(double p) {
        return quantile(Part.TOTAL, p);
    }

    /**
     * The {@code p}-quantile in seconds (0 < p ≤ 1) of {@code part} of the rows' latency, or null
     * with nothing recorded.
     */
    synchronized Double quantile(Part part, double p) {
        if (total == 0) {
            return null;
        }
        long[] c = counts[part.ordinal()];
        long rank = (long) Math.ceil(p * total);
        long seen = 0;
        for (int ms = 0; ms < c.length; ms++) {
            seen += c[ms];
            if (seen >= rank) {
                return ms / 1000.0;
            }
        }
        return MAX_MS / 1000.0;
    }
}
