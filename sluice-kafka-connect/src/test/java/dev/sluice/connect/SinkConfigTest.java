package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class SinkConfigTest {
    private static Map<String, String> props(String... kv) {
        Map<String, String> p = new HashMap<>();
        p.put("clickhouse.url", "clickhouse://ingest@ch1:9000/analytics");
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void eachTopicGoesToTheTableNamedAfterItUnlessTheMapSaysOtherwise() {
        SinkConfig c =
                new SinkConfig(
                        props(
                                "clickhouse.table", "raw_${topic}",
                                "topic.table.map", "clicks=web.clicks, views = web.views"));
        assertThat(c.tableFor("orders")).isEqualTo("raw_orders");
        assertThat(c.tableFor("clicks")).isEqualTo("web.clicks");
        assertThat(c.tableFor("views")).isEqualTo("web.views");
        assertThat(new SinkConfig(props()).tableFor("orders")).isEqualTo("orders");
    }

    @Test
    void defaults() {
        SinkConfig c = new SinkConfig(props());
        assertThat(c.batchRecords()).isEqualTo(100_000);
        assertThat(c.linger()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.maxInflightBytes()).isEqualTo(256L << 20);
        assertThat(c.ignoreUnknownFields()).isFalse();
        assertThat(c.url()).isEqualTo("clickhouse://ingest@ch1:9000/analytics");
        assertThat(c.ledgerTable()).as("batches are not recorded unless asked").isNull();
        assertThat(c.ledgerRetentionDays()).isEqualTo(7);
    }

    @Test
    void theLedgerIsATableNameWithAnOptionalDatabase() {
        assertThat(new SinkConfig(props("batch.ledger.table", "ops.sluice_batches")).ledgerTable())
                .isEqualTo("ops.sluice_batches");
        assertThat(new SinkConfig(props("batch.ledger.table", "batches")).ledgerTable())
                .isEqualTo("batches");
    }

    @Test
    void thePasswordGoesIntoTheUrlEncodedAndIsHiddenFromTheConfigsText() {
        SinkConfig c = new SinkConfig(props("clickhouse.password", "p&ss=wörd"));
        assertThat(c.url())
                .isEqualTo("clickhouse://ingest@ch1:9000/analytics?password=p%26ss%3Dw%C3%B6rd");
        assertThat(c.toString()).doesNotContain("p&ss");
        SinkConfig q =
                new SinkConfig(
                        Map.of(
                                "clickhouse.url", "http://u@h:8123/db?compression=zstd",
                                "clickhouse.password", "x"));
        assertThat(q.url()).isEqualTo("http://u@h:8123/db?compression=zstd&password=x");
    }

    @Test
    void badSettingsAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> new SinkConfig(Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("clickhouse.url");
        assertThatThrownBy(() -> new SinkConfig(props("topic.table.map", "clicks")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("topic.table.map")
                .hasMessageContaining("topic=table");
        assertThatThrownBy(() -> new SinkConfig(props("unknown.fields", "drop")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown.fields");
        assertThatThrownBy(() -> new SinkConfig(props("batch.max.records", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("batch.max.records");
        assertThatThrownBy(() -> new SinkConfig(props("batch.ledger.table", "x; DROP TABLE y")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("batch.ledger.table")
                .hasMessageContaining("[db.]table");
        assertThatThrownBy(() -> new SinkConfig(props("batch.ledger.retention.days", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("batch.ledger.retention.days");
    }
}
