package dev.sluice.connect;

import dev.sluice.kafka.it.TestKafka;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka Connect standalone worker in a process of its own ({@code ConnectStandalone}, as
 * {@code connect-standalone.sh} runs it, on this JVM's class path), running one connector of
 * Sluice's sink loaded from the packaged plugin: so that a test can kill it with SIGKILL
 * mid-stream, as a crash would — nothing flushed, committed or closed.
 */
final class ConnectWorkerProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private ConnectWorkerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a worker committing offsets every {@code commitIntervalMs} and running connector
     * {@code name} with {@code config}; its output goes to {@code dir/worker-N.log}.
     */
    static ConnectWorkerProcess start(
            Path dir, String name, Map<String, String> config, long commitIntervalMs)
            throws IOException {
        Files.createDirectories(dir);
        int n = 0;
        while (Files.exists(dir.resolve("worker-" + n + ".log"))) {
            n++;
        }
        Properties worker = new Properties();
        worker.setProperty("bootstrap.servers", TestKafka.bootstrapServers());
        worker.setProperty("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        worker.setProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.setProperty("value.converter.schemas.enable", "false");
        worker.setProperty("offset.storage.file.filename", dir.resolve("offsets-" + n).toString());
        worker.setProperty("offset.flush.interval.ms", Long.toString(commitIntervalMs));
        worker.setProperty("plugin.path", ConnectWorker.pluginDir().toString());
        worker.setProperty("listeners", "http://127.0.0.1:0");
        // the next worker gets the partitions soon after this one died (the broker allows 1 s)
        worker.setProperty("consumer.session.timeout.ms", "2000");
        worker.setProperty("consumer.heartbeat.interval.ms", "500");
        Path workerProps = dir.resolve("worker-" + n + ".properties");
        store(worker, workerProps);

        Properties connector = new Properties();
        connector.putAll(config);
        connector.setProperty("name", name);
        connector.setProperty("connector.class", ConnectWorker.CONNECTOR);
        Path connectorProps = dir.resolve("connector-" + n + ".properties");
        store(connector, connectorProps);

        Path log = dir.resolve("worker-" + n + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // its log to its own file (the tests' simplelogger.properties names a shared one)
        command.add("-Dorg.slf4j.simpleLogger.logFile=System.err");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("org.apache.kafka.connect.cli.ConnectStandalone");
        command.add(workerProps.toString());
        command.add(connectorProps.toString());
        Process p =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        return new ConnectWorkerProcess(p, log);
    }

    private static void store(Properties p, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, null);
        }
    }

    /** Fails with the end of the worker's log when it is no longer running. */
    void checkAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "the Connect worker exited with "
                            + process.exitValue()
                            + "; the end of "
                            + log
                            + ":\n"
                            + tail());
        }
    }

    String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** SIGKILL, as a crash: no commit, no close. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** A clean stop (SIGTERM: the worker stops its tasks and commits); SIGKILL after a minute. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
