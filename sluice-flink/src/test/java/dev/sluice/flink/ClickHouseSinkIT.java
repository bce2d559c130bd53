package dev.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.clickhouse.it.TestServer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink in a real Flink MiniCluster against the real ClickHouse: POJOs through a job that fails
 * once after a completed checkpoint and restarts from it lose nothing; Map and RowData elements
 * land value by value; a batch ClickHouse refuses fails the job with the server's reason.
 */
@Timeout(600)
class ClickHouseSinkIT {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String COLUMNS =
            "(id UInt64, name String, amount Decimal(12, 2), ts DateTime,"
                    + " note String DEFAULT 'none')";

    @BeforeAll
    static void server() {
        TestServer.single("SELECT 1");
    }

    /** An event as a POJO with getters and a public field. */
    public static final class Event {
        public long id;
        private final String name;
        private final BigDecimal amount;
        private final Instant ts;

        public Event(long id) {
            this.id = id;
            this.name = "name-" + id;
            this.amount = BigDecimal.valueOf(id * 25, 2);
            this.ts = Instant.ofEpochSecond(1_700_000_000L + id);
        }

        public String getName() {
            return name;
        }

        public BigDecimal getAmount() {
            return amount;
        }

        public Instant getTs() {
            return ts;
        }
    }

    private static List<Object> expected(long id, String note) {
        return List.of(id, "name-" + id, BigDecimal.valueOf(id * 25, 2), 1_700_000_000L + id, note);
    }

    private static String table(String prefix) {
        String t = TestServer.newTable(prefix);
        TestServer.execute("CREATE TABLE " + t + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id");
        return t;
    }

    private static List<List<Object>> rows(String table) {
        try (NativeConnection c = TestServer.connect()) {
            return c.queryRows("SELECT id, name, amount, ts, note FROM " + table + " ORDER BY id");
        }
    }

    private static StreamExecutionEnvironment env(int restarts) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration conf = new Configuration();
        if (restarts > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofMillis(200));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        env.configure(conf);
        return env;
    }

    /** Fails once, after a checkpoint completed; slow enough for checkpoints to happen. */
    static final class FailOnceAfterACheckpoint
            implements MapFunction<Long, Event>, CheckpointListener {
        static final AtomicBoolean FAILED = new AtomicBoolean();
        static final AtomicInteger CHECKPOINTS_BEFORE_FAILURE = new AtomicInteger();

        @Override
        public Event map(Long id) throws Exception {
            if (id % 20 == 0) {
                Thread.sleep(1);
            }
            if (CHECKPOINTS_BEFORE_FAILURE.get() >= 2 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at " + id);
            }
            return new Event(id);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (!FAILED.get()) {
                CHECKPOINTS_BEFORE_FAILURE.incrementAndGet();
            }
        }
    }

    @Test
    void aJobThatFailsAfterACheckpointAndRestartsFromItLosesNothing() throws Exception {
        FailOnceAfterACheckpoint.FAILED.set(false);
        FailOnceAfterACheckpoint.CHECKPOINTS_BEFORE_FAILURE.set(0);
        String table = table("flink_restart");
        int n = 40_000;
        StreamExecutionEnvironment env = env(3);
        env.setParallelism(2);
        env.enableCheckpointing(100);
        env.fromSequence(0, n - 1)
                .map(new FailOnceAfterACheckpoint())
                .sinkTo(
                        ClickHouseSink.forPojos(TestServer.url(), table, Event.class)
                                .chunkRows(1_000)
                                .build());
        env.execute("flink-restart");
        assertThat(FailOnceAfterACheckpoint.FAILED).as("the failure was injected").isTrue();
        assertThat(FailOnceAfterACheckpoint.CHECKPOINTS_BEFORE_FAILURE.get()).isGreaterThan(1);
        // at least once: every element's row with its values; rows after the last checkpoint
        // before the failure may be there twice
        Set<Long> ids = new HashSet<>();
        for (List<Object> row : rows(table)) {
            long id = (Long) row.get(0);
            assertThat(row).as("row %d", id).isEqualTo(expected(id, "none"));
            ids.add(id);
        }
        assertThat(ids).hasSize(n);
        assertThat(ids).allMatch(id -> id >= 0 && id < n);
    }

    @Test
    void exactlyOnceOnAReplicatedTableAJobThatFailsAndRestartsWritesEveryRowOnce()
            throws Exception {
        TestCluster.require();
        FailOnceAfterACheckpoint.FAILED.set(false);
        FailOnceAfterACheckpoint.CHECKPOINTS_BEFORE_FAILURE.set(0);
        String table = TestCluster.newTable("flink_exactly_once");
        TestCluster.execute(
                1,
                "CREATE TABLE "
                        + table
                        + " "
                        + COLUMNS
                        + " "
                        + TestCluster.replicatedEngine(table, "id"));
        int n = 40_000;
        StreamExecutionEnvironment env = env(3);
        env.setParallelism(2);
        env.enableCheckpointing(100);
        env.fromSequence(0, n - 1)
                .map(new FailOnceAfterACheckpoint())
                .sinkTo(
                        ClickHouseSink.forPojos(TestCluster.url(1), table, Event.class)
                                .chunkRows(1_000)
                                .buildExactlyOnce());
        env.execute("flink-exactly-once");
        assertThat(FailOnceAfterACheckpoint.FAILED).as("the failure was injected").isTrue();
        List<List<Object>> rows;
        try (NativeConnection c = TestCluster.connect(1)) {
            rows = c.queryRows("SELECT id, name, amount, ts, note FROM " + table + " ORDER BY id");
        }
        assertThat(rows).as("every element once").hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected(i, "none"));
        }
    }

    @Test
    void mapElementsLandValueByValue() throws Exception {
        String table = table("flink_maps");
        int n = 5_000;
        StreamExecutionEnvironment env = env(0);
        env.setParallelism(1);
        env.fromSequence(0, n - 1)
                .map(
                        id -> {
                            Map<String, Object> m = new HashMap<>();
                            m.put("id", id);
                            m.put("name", "name-" + id);
                            m.put("amount", BigDecimal.valueOf(id * 25, 2).toPlainString());
                            m.put("ts", 1_700_000_000L + id);
                            if (id % 3 != 0) {
                                m.put("note", "n" + id);
                            }
                            return m;
                        })
                .returns(new TypeHint<Map<String, Object>>() {})
                .sinkTo(ClickHouseSink.forMaps(TestServer.url(), table).chunkRows(700).build());
        env.execute("flink-maps");
        List<List<Object>> rows = rows(table);
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).isEqualTo(expected(i, i % 3 != 0 ? "n" + i : "none"));
        }
    }

    @Test
    void rowDataLandsValueByValue() throws Exception {
        String table = table("flink_rowdata");
        int n = 3_000;
        RowType type =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new BigIntType(false),
                            new VarCharType(100),
                            new DecimalType(12, 2),
                            new LocalZonedTimestampType(3)
                        },
                        new String[] {"id", "name", "amount", "ts"});
        StreamExecutionEnvironment env = env(0);
        env.setParallelism(1);
        env.getConfig().enableObjectReuse(); // RowData goes from the map to the sink as it is
        env.fromSequence(0, n - 1)
                .map(
                        id ->
                                (RowData)
                                        GenericRowData.of(
                                                id,
                                                StringData.fromString("name-" + id),
                                                DecimalData.fromBigDecimal(
                                                        BigDecimal.valueOf(id * 25, 2), 12, 2),
                                                TimestampData.fromInstant(
                                                        Instant.ofEpochSecond(
                                                                1_700_000_000L + id))))
                .returns(TypeInformation.of(RowData.class))
                .sinkTo(ClickHouseSink.forRowData(TestServer.url(), table, type).build());
        env.execute("flink-rowdata");
        List<List<Object>> rows = rows(table);
        assertThat(rows).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(rows.get(i)).isEqualTo(expected(i, "none"));
        }
    }

    @Test
    void aBatchClickHouseRefusesFailsTheJobWithTheServersReason() throws Exception {
        String table = table("flink_refused");
        StreamExecutionEnvironment env = env(0);
        env.setParallelism(1);
        env.fromSequence(0, 99)
                .map(id -> id)
                .returns(Types.LONG)
                .map(
                        id -> {
                            if (id == 50) {
                                TestServer.execute("DETACH TABLE " + table);
                            }
                            return new Event(id);
                        })
                .sinkTo(ClickHouseSink.forPojos(TestServer.url(), table, Event.class).build());
        try {
            assertThatThrownBy(() -> env.execute("flink-refused"))
                    .rootCause()
                    .hasMessageContaining("doesn't exist");
        } finally {
            TestServer.execute("ATTACH TABLE " + table);
        }
        assertThat(rows(table)).isEmpty();
    }
}
