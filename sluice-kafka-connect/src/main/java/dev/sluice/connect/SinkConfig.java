package dev.sluice.connect;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** The configuration of {@link ClickHouseSinkConnector} (docs/connect.md lists every key). */
final class SinkConfig extends AbstractConfig {
    static final String URL = "clickhouse.url";
    static final String PASSWORD = "clickhouse.password";
    static final String TABLE = "clickhouse.table";
    static final String TOPIC_TABLES = "topic.table.map";
    static final String BATCH_RECORDS = "batch.max.records";
    static final String LINGER_MS = "batch.linger.ms";
    static final String MAX_INFLIGHT_BYTES = "max.inflight.bytes";
    static final String INFLIGHT_PER_SHARD = "inflight.per.shard";
    static final String UNKNOWN_FIELDS = "unknown.fields";
    static final String LEDGER_TABLE = "batch.ledger.table";
    static final String LEDGER_RETENTION_DAYS = "batch.ledger.retention.days";

    private static final String TABLE_NAME = "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?";

    /** The topic's name in {@value #TABLE}. */
    static final String TOPIC_PLACEHOLDER = "${topic}";

    static final ConfigDef DEF =
            new ConfigDef()
                    .define(
                            URL,
                            Type.STRING,
                            ConfigDef.NO_DEFAULT_VALUE,
                            Importance.HIGH,
                            "The ClickHouse server: clickhouse://user@host:9000/database (native)"
                                    + " or http(s)://user@host:8123/database, with the parameters"
                                    + " of Sluice's URLs. Give the password in "
                                    + PASSWORD
                                    + " (or password_file=...), not in the URL.")
                    .define(
                            PASSWORD,
                            Type.PASSWORD,
                            null,
                            Importance.HIGH,
                            "The password of the URL's user (never logged).")
                    .define(
                            TABLE,
                            Type.STRING,
                            TOPIC_PLACEHOLDER,
                            Importance.HIGH,
                            "The table each topic's records go to ([db.]table); "
                                    + TOPIC_PLACEHOLDER
                                    + " stands for the record's topic.")
                    .define(
                            TOPIC_TABLES,
                            Type.LIST,
                            "",
                            Importance.MEDIUM,
                            "topic=table pairs that override "
                                    + TABLE
                                    + " for those topics, e.g. clicks=web.clicks,views=web.views.")
                    .define(
                            BATCH_RECORDS,
                            Type.INT,
                            100_000,
                            ConfigDef.Range.atLeast(1),
                            Importance.MEDIUM,
                            "A partition's batch is sent once it spans this many offsets.")
                    .define(
                            LINGER_MS,
                            Type.LONG,
                            1_000L,
                            ConfigDef.Range.atLeast(0),
                            Importance.MEDIUM,
                            "A partition's batch is sent at the latest this long after its first"
                                    + " record arrived.")
                    .define(
                            MAX_INFLIGHT_BYTES,
                            Type.LONG,
                            256L << 20,
                            ConfigDef.Range.atLeast(1),
                            Importance.MEDIUM,
                            "Bytes of rows per table sent and not yet acknowledged; put() waits"
                                    + " for room beyond them.")
                    .define(
                            INFLIGHT_PER_SHARD,
                            Type.INT,
                            2,
                            ConfigDef.Range.between(1, 64),
                            Importance.LOW,
                            "INSERTs at once per table and shard, each on its own connection.")
                    .define(
                            UNKNOWN_FIELDS,
                            Type.STRING,
                            "reject",
                            ConfigDef.ValidString.in("reject", "ignore"),
                            Importance.MEDIUM,
                            "A record with a field the table has no column for: reject (to the"
                                    + " errant-record reporter, i.e. errors.tolerance and the"
                                    + " DLQ decide) or ignore (the field is dropped, the row"
                                    + " written).")
                    .define(
                            LEDGER_TABLE,
                            Type.STRING,
                            "",
                            (name, value) -> {
                                String v = (String) value;
                                if (v != null && !v.isEmpty() && !v.matches(TABLE_NAME)) {
                                    throw new ConfigException(
                                            name, v, "a table name: [db.]table of [A-Za-z0-9_]");
                                }
                            },
                            Importance.MEDIUM,
                            "A ClickHouse table ([db.]table on the server of "
                                    + URL
                                    + ", created if missing) where each batch's offsets are"
                                    + " recorded before it is sent, so that a replay after a"
                                    + " restart or rebalance re-creates the batches sealed by"
                                    + " linger too: exactly once on a table that deduplicates."
                                    + " Empty: not recorded (then only batches sealed by "
                                    + BATCH_RECORDS
                                    + " come out the same in a replay).")
                    .define(
                            LEDGER_RETENTION_DAYS,
                            Type.INT,
                            7,
                            ConfigDef.Range.atLeast(0),
                            Importance.LOW,
                            "Days of "
                                    + LEDGER_TABLE
                                    + " older than this are dropped when a task starts (0:"
                                    + " never). A batch's entry is needed until its offsets are"
                                    + " committed.");

    private final Map<String, String> topicTables;

    SinkConfig(Map<String, String> props) {
        super(DEF, props);
        this.topicTables = parseTopicTables(getList(TOPIC_TABLES));
    }

    /** The server URL with the password (if given apart) as its parameter. */
    String url() {
        String url = getString(URL);
        Password p = getPassword(PASSWORD);
        if (p == null || p.value() == null) {
            return url;
        }
        return url
                + (url.contains("?") ? "&" : "?")
                + "password="
                + URLEncoder.encode(p.value(), StandardCharsets.UTF_8);
    }

    /** The table {@code topic}'s records go to. */
    String tableFor(String topic) {
        String t = topicTables.get(topic);
        return t != null ? t : getString(TABLE).replace(TOPIC_PLACEHOLDER, topic);
    }

    int batchRecords() {
        return getInt(BATCH_RECORDS);
    }

    Duration linger() {
        return Duration.ofMillis(getLong(LINGER_MS));
    }

    long maxInflightBytes() {
        return getLong(MAX_INFLIGHT_BYTES);
    }

    int inflightPerShard() {
        return getInt(INFLIGHT_PER_SHARD);
    }

    /** The batch ledger's table, or null when batches are not recorded. */
    String ledgerTable() {
        String t = getString(LEDGER_TABLE);
        return t == null || t.isEmpty() ? null : t;
    }

    int ledgerRetentionDays() {
        return getInt(LEDGER_RETENTION_DAYS);
    }

    boolean ignoreUnknownFields() {
        return "ignore".equals(getString(UNKNOWN_FIELDS));
    }

    private static Map<String, String> parseTopicTables(List<String> pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                throw new ConfigException(
                        TOPIC_TABLES,
                        pair,
                        "each entry must be topic=table, e.g. clicks=web.clicks");
            }
            m.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return Map.copyOf(m);
    }
}
