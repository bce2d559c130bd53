package dev.sluice.rigs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every rig runs with: the server, where records go, progress, and the common options ({@code
 * --reps}, {@code --window}, {@code --warmup}, {@code --quick}, {@code --seed}).
 */
public final class BenchContext {
    private final Target target;
    private final Jsonl results;
    private final Progress progress;
    private final Provenance provenance;
    private final Options options;
    private final Path workDir;
    private final List<String> sluiceCommand;
    private final Supplier<String> kafka;
    private final ServerCpu serverCpu;
    private final String runId = java.util.UUID.randomUUID().toString().substring(0, 8);
    private int tables;

    /**
     * @param reps repetitions of each arm
     * @param window the steady-state window measured
     * @param warmup run before the window, not measured
     * @param quick the short variant of each rig (CI, demos)
     * @param seed the data seed
     */
    public record Options(int reps, Duration window, Duration warmup, boolean quick, long seed) {
        public Options {
            if (reps < 1) {
                throw new IllegalArgumentException("--reps must be ≥ 1");
            }
            if (window.toMillis() < 1000) {
                throw new IllegalArgumentException("--window must be at least 1s");
            }
            if (warmup.isNegative()) {
                throw new IllegalArgumentException("--warmup must not be negative");
            }
        }
    }

    /**
     * @param sluiceCommand how to start {@code sluice} as a process (java, options, -jar, the jar),
     *     or null when this is not running from the sluice jar
     * @param kafka the Kafka bootstrap servers, asked for (and a broker started) only by the kafka
     *     rig
     */
    public BenchContext(
            Target target,
            Jsonl results,
            Progress progress,
            Provenance provenance,
            Options options,
            Path workDir,
            List<String> sluiceCommand,
            Supplier<String> kafka) {
        this.target = target;
        this.results = results;
        this.progress = progress;
        this.provenance = provenance;
        this.options = options;
        this.workDir = workDir;
        this.sluiceCommand = sluiceCommand;
        this.kafka = kafka;
        this.serverCpu = new ServerCpu(target);
    }

    public Target target() {
        return target;
    }

    public Progress progress() {
        return progress;
    }

    public Options options() {
        return options;
    }

    public int reps() {
        return options.reps();
    }

    public boolean quick() {
        return options.quick();
    }

    public long seed() {
        return options.seed();
    }

    public Path workDir() {
        return workDir;
    }

    public List<String> sluiceCommand() {
        return sluiceCommand;
    }

    public String kafkaBootstrap() {
        return kafka.get();
    }

    public ServerCpu serverCpu() {
        return serverCpu;
    }

    /**
     * A table name of this run, in {@code database}: {@code PREFIX_RUNID_N}, unique across runs so
     * that the query log's INSERTs of one table are this run's alone.
     */
    public synchronized String newTable(String database, String prefix) {
        return database + "." + prefix + "_" + runId + "_" + (++tables);
    }

    /** A record of {@code rig}, with the common options and {@code settings} as its settings. */
    public BenchRecord record(
            String rig, Map<String, Object> arm, int rep, Map<String, Object> settings) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("reps", options.reps());
        s.put("window_s", options.window().toMillis() / 1000.0);
        s.put("warmup_s", options.warmup().toMillis() / 1000.0);
        s.put("quick", options.quick());
        s.put("url", redact(target.nativeUrl()));
        s.putAll(settings);
        return new BenchRecord(rig, arm, rep, provenance.withSettings(s));
    }

    /** Appends a finished record. */
    public void write(BenchRecord record) throws IOException {
        results.append(record.fields());
    }

    /** The URL without a password. */
    static String redact(String url) {
        return url == null ? null : url.replaceAll("//([^:/@]+):[^@/]*@", "//$1:***@");
    }
}
