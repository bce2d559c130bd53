package dev.sluice.rigs.kafka;

import dev.sluice.rigs.data.EventsData;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The paced arm's producer, in a process of its own: in the pipeline's JVM it took CPU, heap and GC
 * pauses from the pipeline it measures, and its CPU was counted as the client's. The child sends
 * the events at a fixed rate into a topic from when it says {@code ready} until its standard input
 * says {@code stop} (or closes), then prints what it sent ({@link #main}) and exits.
 */
final class PacedProducer implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final BufferedReader out;

    /** What the child reached: records sent, how far behind schedule, its CPU. */
    record Outcome(long sent, long behindMaxMillis, double cpuSeconds) {}

    private PacedProducer(Process process) {
        this.process = process;
        this.out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts the child and waits until it sends. */
    static PacedProducer start(
            String bootstrap, String topic, long rowsPerSecond, long seed, Path log)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(
                ProcessHandle.current()
                        .info()
                        .command()
                        .orElse(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString()));
        cmd.add("-Xmx1g");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(PacedProducer.class.getName());
        cmd.add(bootstrap);
        cmd.add(topic);
        cmd.add(Long.toString(rowsPerSecond));
        cmd.add(Long.toString(seed));
        Process p =
                new ProcessBuilder(cmd)
                        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        PacedProducer producer = new PacedProducer(p);
        producer.awaitReady();
        return producer;
    }

    private void awaitReady() throws IOException {
        CompletableFuture<String> first =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return out.readLine();
                            } catch (IOException e) {
                                return null;
                            }
                        },
                        r -> Thread.ofVirtual().start(r));
        String line;
        try {
            line = first.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            line = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line = null;
        }
        if (!"ready".equals(line)) {
            process.destroyForcibly();
            throw new IOException(
                    "the paced producer did not start (it said "
                            + line
                            + "; its stderr is in the rig's log)");
        }
    }

    /** Stops the child and returns what it reached. */
    Outcome stop() throws IOException, InterruptedException {
        try (BufferedWriter in =
                new BufferedWriter(
                        new OutputStreamWriter(
                                process.getOutputStream(), StandardCharsets.UTF_8))) {
            in.write("stop\n");
        } catch (IOException e) {
            // the child is gone already: its last line (if any) still says what it sent
        }
        String line = out.readLine();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        if (line == null || !line.startsWith("sent ")) {
            throw new IOException(
                    "the paced producer ended without its count (exit "
                            + process.exitValue()
                            + ")");
        }
        String[] f = line.split(" ");
        if (f.length != 6) {
            throw new IOException("the paced producer's last line is not its count: " + line);
        }
        return new Outcome(Long.parseLong(f[1]), Long.parseLong(f[3]), Long.parseLong(f[5]) / 1e3);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /**
     * The child: {@code bootstrap topic rowsPerSecond seed}. Its last line is {@code sent N
     * behind_max_ms M cpu_ms C}, its own CPU included (a process that has exited has none to ask).
     */
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        long rate = Long.parseLong(args[2]);
        long seed = Long.parseLong(args[3]);
        AtomicBoolean stop = new AtomicBoolean();
        try (EventProducer producer =
                new EventProducer(bootstrap, EventsData.generate(100_000, seed))) {
            producer.connect(topic);
            Thread.ofPlatform()
                    .daemon()
                    .start(
                            () -> {
                                try (BufferedReader in =
                                        new BufferedReader(
                                                new InputStreamReader(
                                                        System.in, StandardCharsets.UTF_8))) {
                                    String l;
                                    do {
                                        l = in.readLine();
                                    } while (l != null && !l.equals("stop"));
                                } catch (IOException e) {
                                    // a closed pipe: stop as for "stop"
                                }
                                stop.set(true);
                            });
            System.out.println("ready");
            System.out.flush();
            EventProducer.Paced p = producer.paced(topic, rate, stop);
            System.out.println(
                    String.format(
                            Locale.ROOT,
                            "sent %d behind_max_ms %d cpu_ms %d",
                            p.sent(),
                            p.behindMaxMillis(),
                            ((com.sun.management.OperatingSystemMXBean)
                                                    ManagementFactory.getOperatingSystemMXBean())
                                            .getProcessCpuTime()
                                    / 1_000_000));
            System.out.flush();
        }
    }
}
