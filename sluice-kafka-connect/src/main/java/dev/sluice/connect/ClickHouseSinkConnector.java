package dev.sluice.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A Kafka Connect sink into ClickHouse on Sluice's {@code ClickHouseWriter}: Native blocks over the
 * native protocol (or HTTP), each partition's records in batches of consecutive offsets, each batch
 * with a deduplication token from its topic, partition and offsets, and offsets committed only for
 * batches ClickHouse acknowledged (docs/connect.md).
 *
 * <pre>{@code
 * connector.class=dev.sluice.connect.ClickHouseSinkConnector
 * topics=events
 * clickhouse.url=clickhouse://ingest@ch1:9000/analytics
 * clickhouse.password=...
 * clickhouse.table=${topic}
 * value.converter=org.apache.kafka.connect.json.JsonConverter
 * value.converter.schemas.enable=false
 * }</pre>
 */
public final class ClickHouseSinkConnector extends SinkConnector {
    private Map<String, String> props;

    @Override
    public String version() {
        return Version.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        new SinkConfig(props); // a bad configuration fails the connector, not each task
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return ClickHouseSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>(maxTasks);
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {}

    @Override
    public ConfigDef config() {
        return SinkConfig.DEF;
    }
}
