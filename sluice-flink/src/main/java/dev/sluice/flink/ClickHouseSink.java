package dev.sluice.flink;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Flink sink (Sink V2) into one ClickHouse table on Sluice's {@link ClickHouseWriter}: Native
 * blocks over the native protocol (or HTTP), LZ4, client-side DEFAULTs. Each parallel subtask has
 * its own writer.
 *
 * <p><b>At least once.</b> On a checkpoint barrier the subtask sends what it holds and waits until
 * ClickHouse acknowledged every row before it ({@link SinkWriter#flush}); the checkpoint completes
 * only then, so a restart from it replays exactly the rows that may not be written. A row is
 * written once or, after a failure, possibly again — never lost. A refused batch (after the
 * writer's retries) fails the job, which restarts from the last checkpoint under its restart
 * strategy.
 *
 * <pre>{@code
 * env.enableCheckpointing(10_000);
 * DataStream<Event> events = ...;
 * events.sinkTo(ClickHouseSink.forPojos("clickhouse://ingest@ch1:9000/analytics", "events",
 *         Event.class).build());
 * }</pre>
 *
 * @param <T> the stream's element type
 */
public final class ClickHouseSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    private final String url;
    private final String table;
    private final RecordFields<T> fields;
    private final int chunkRows;
    private final long lingerMillis;
    private final long maxInflightBytes;
    private final int inflightPerShard;
    private final Map<String, String> settings;

    private ClickHouseSink(Builder<T> b) {
        this.url = b.url;
        this.table = b.table;
        this.fields = b.fields;
        this.chunkRows = b.chunkRows;
        this.lingerMillis = b.linger.toMillis();
        this.maxInflightBytes = b.maxInflightBytes;
        this.inflightPerShard = b.inflightPerShard;
        this.settings = Map.copyOf(b.settings);
    }

    /** A sink of POJOs or records: their fields by name (see {@link PojoFields}). */
    public static <T> Builder<T> forPojos(String url, String table, Class<T> type) {
        return new Builder<>(url, table, PojoFields.of(type));
    }

    /** A sink of {@code Map}s, keys being column names. */
    public static Builder<Map<String, Object>> forMaps(String url, String table) {
        return new Builder<>(url, table, RecordFields.maps());
    }

    /** A sink of the Table API's {@link RowData} of type {@code rowType}. */
    public static Builder<RowData> forRowData(String url, String table, RowType rowType) {
        return new Builder<>(url, table, RowDataFields.of(rowType));
    }

    /** A sink of elements that {@code fields} turns into rows. */
    public static <T> Builder<T> builder(String url, String table, RecordFields<T> fields) {
        return new Builder<>(url, table, fields);
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        return new ClickHouseSinkWriter<>(
                openWriter("flink-" + subtask),
                fields,
                chunkRows,
                lingerMillis * 1_000_000L,
                context.metricGroup(),
                "subtask " + subtask + " of the ClickHouse sink into " + table);
    }

    /** A writer into the sink's table with the sink's options. */
    ClickHouseWriter openWriter(String name) throws IOException {
        try {
            return ClickHouseWriter.builder(url, table)
                    .name(name)
                    .inflightPerShard(inflightPerShard)
                    .maxInflightBytes(maxInflightBytes)
                    .settings(settings)
                    .threadNamePrefix("sluice-" + name + "-shard")
                    .build();
        } catch (RuntimeException e) {
            throw new IOException("ClickHouse sink into " + table + ": " + e.getMessage(), e);
        }
    }

    String table() {
        return table;
    }

    RecordFields<T> fields() {
        return fields;
    }

    int chunkRows() {
        return chunkRows;
    }

    /** Options of a {@link ClickHouseSink}. */
    public static final class Builder<T> {
        private final String url;
        private final String table;
        private final RecordFields<T> fields;
        private int chunkRows = 50_000;
        private Duration linger = Duration.ofSeconds(1);
        private long maxInflightBytes = 256L << 20;
        private int inflightPerShard = 2;
        private Map<String, String> settings = Map.of();

        private Builder(String url, String table, RecordFields<T> fields) {
            this.url = Objects.requireNonNull(url, "url");
            this.table = Objects.requireNonNull(table, "table");
            this.fields = Objects.requireNonNull(fields, "fields");
        }

        /**
         * Rows a subtask gathers before handing them to its writer (which sends them as one INSERT,
         * or with others); at least every checkpoint hands over what is gathered.
         */
        public Builder<T> chunkRows(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("chunkRows must be at least 1: " + rows);
            }
            this.chunkRows = rows;
            return this;
        }

        /**
         * Gathered rows are handed over at the first element arriving this long after the first of
         * them (a quiet stream's rows go at the next checkpoint).
         */
        public Builder<T> linger(Duration linger) {
            this.linger = Objects.requireNonNull(linger);
            return this;
        }

        /** Bytes of rows sent and not yet acknowledged per subtask; {@code write} waits beyond. */
        public Builder<T> maxInflightBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxInflightBytes must be positive: " + bytes);
            }
            this.maxInflightBytes = bytes;
            return this;
        }

        /** INSERTs at once per subtask and shard, each on its own connection. */
        public Builder<T> inflightPerShard(int n) {
            this.inflightPerShard = n;
            return this;
        }

        /** ClickHouse settings sent with every INSERT. */
        public Builder<T> settings(Map<String, String> settings) {
            this.settings = Map.copyOf(settings);
            return this;
        }

        /** The at-least-once sink: rows are written as they come, checkpoints wait for them. */
        public ClickHouseSink<T> build() {
            return new ClickHouseSink<>(this);
        }

        /**
         * The exactly-once sink for tables that deduplicate: rows are written once their checkpoint
         * completed, in batches of at most {@code chunkRows} with tokens kept in the checkpoint
         * ({@link ClickHouseExactlyOnceSink}).
         */
        public ClickHouseExactlyOnceSink<T> buildExactlyOnce() {
            return new ClickHouseExactlyOnceSink<>(new ClickHouseSink<>(this));
        }
    }
}
