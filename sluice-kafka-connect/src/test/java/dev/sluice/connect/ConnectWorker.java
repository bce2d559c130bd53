package dev.sluice.connect;

import dev.sluice.kafka.it.TestKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.Herder;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.runtime.standalone.StandaloneHerder;
import org.apache.kafka.connect.util.ConnectorTaskId;
import org.apache.kafka.connect.util.FutureCallback;

/**
 * A real Kafka Connect standalone worker in this JVM, as {@code connect-standalone.sh} starts one,
 * against the test broker ({@code scripts/kafka}), loading Sluice's connector from the packaged
 * plugin directory ({@code plugin.path}) in the worker's isolated plugin class loader.
 */
final class ConnectWorker implements AutoCloseable {
    /** The connector class, by name: it is not on the test's class path. */
    static final String CONNECTOR = "dev.sluice.connect.ClickHouseSinkConnector";

    private final Connect<StandaloneHerder> connect;

    private ConnectWorker(Connect<StandaloneHerder> connect) {
        this.connect = connect;
    }

    /** Starts a worker whose offsets file is {@code offsets} (keep it to restart "the same"). */
    static ConnectWorker start(Path offsets) {
        Map<String, String> p = new HashMap<>();
        p.put("bootstrap.servers", TestKafka.bootstrapServers());
        p.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.put("value.converter.schemas.enable", "false");
        p.put("offset.storage.file.filename", offsets.toString());
        p.put("offset.flush.interval.ms", "500");
        p.put("plugin.path", pluginDir().toString());
        p.put("listeners", "http://127.0.0.1:0");
        p.put("task.shutdown.graceful.timeout.ms", "10000");
        return new ConnectWorker(new ConnectStandalone().startConnect(p));
    }

    /** The packaged plugin's parent directory (a {@code plugin.path} entry). */
    static Path pluginDir() {
        String dir = System.getProperty("sluice.connect.plugin.dir");
        if (dir == null || !Files.isDirectory(Path.of(dir, "sluice-kafka-connect"))) {
            throw new IllegalStateException(
                    "the packaged Connect plugin is missing ("
                            + dir
                            + "/sluice-kafka-connect): run through Maven's verify (package)");
        }
        return Path.of(dir);
    }

    /** The class loader the worker loaded the connector with. */
    ClassLoader connectorLoader() throws ClassNotFoundException {
        return connect.herder().plugins().delegatingLoader().loadClass(CONNECTOR).getClassLoader();
    }

    /** Creates (or replaces) connector {@code name}: Sluice's sink with {@code config}. */
    void putConnector(String name, Map<String, String> config) throws Exception {
        Map<String, String> c = new HashMap<>(config);
        c.put("name", name);
        c.put("connector.class", CONNECTOR);
        FutureCallback<Herder.Created<ConnectorInfo>> done = new FutureCallback<>();
        connect.herder().putConnectorConfig(name, c, true, done);
        done.get(60, TimeUnit.SECONDS);
    }

    /** The states of the connector's tasks (RUNNING, FAILED, ...) with their traces. */
    List<ConnectorStateInfo.TaskState> tasks(String name) {
        return connect.herder().connectorStatus(name).tasks();
    }

    void restartTask(String name, int task) throws Exception {
        FutureCallback<Void> done = new FutureCallback<>();
        connect.herder().restartTask(new ConnectorTaskId(name, task), done);
        done.get(60, TimeUnit.SECONDS);
    }

    /** Stops the worker: its tasks are stopped, its consumers leave their groups. */
    @Override
    public void close() {
        connect.stop();
    }

    static Path tempOffsets() throws IOException {
        Path f = Files.createTempFile("sluice-connect-offsets", ".dat");
        Files.delete(f);
        return f;
    }
}
