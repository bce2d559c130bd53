package dev.sluice.rigs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where and with what a record was measured: the commit, the server, the machine, the JVM, the
 * rig's settings, the data seed. {@code started_at} is the repetition's start, in UTC.
 */
public final class Provenance {
    private final String gitCommit;
    private final String serverVersion;
    private final Integer serverRevision;
    private final String jvm;
    private final long dataSeed;
    private final Map<String, Object> settings;

    public Provenance(
            String gitCommit,
            String serverVersion,
            Integer serverRevision,
            long dataSeed,
            Map<String, Object> settings) {
        this.gitCommit = gitCommit;
        this.serverVersion = serverVersion;
        this.serverRevision = serverRevision;
        this.jvm =
                System.getProperty("java.vm.name")
                        + " "
                        + System.getProperty("java.runtime.version")
                        + " ("
                        + System.getProperty("java.vm.vendor")
                        + ")";
        this.dataSeed = dataSeed;
        this.settings = new LinkedHashMap<>(settings);
    }

    /** The same provenance with the rig's settings. */
    public Provenance withSettings(Map<String, Object> rigSettings) {
        Map<String, Object> s = new LinkedHashMap<>(settings);
        s.putAll(rigSettings);
        return new Provenance(gitCommit, serverVersion, serverRevision, dataSeed, s);
    }

    void fill(Map<String, Object> fields) {
        fields.put("git_commit", gitCommit);
        fields.put("server_version", serverVersion);
        fields.put("server_revision", serverRevision);
        fields.put("machine", machine());
        fields.put("jvm", jvm);
        fields.put("settings", new LinkedHashMap<>(settings));
        fields.put("started_at", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        fields.put("data_seed", dataSeed);
    }

    /** Cores, CPU model, memory, host name and load average, now. */
    public static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu_model", cpuModel());
        m.put("memory_bytes", memoryBytes());
        m.put("load_average", loadAverage());
        m.put("host", hostName());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        return m;
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }

    static Long memoryBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unknown
        }
        return null;
    }

    static List<Double> loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
            return List.of(
                    Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return String.valueOf(System.getenv("HOSTNAME"));
        }
    }

    /**
     * The commit measured: {@code SLUICE_GIT_COMMIT}, else {@code git rev-parse HEAD} in {@code
     * home} (with {@code -dirty} when tracked files differ), else {@code unknown}.
     */
    public static String gitCommit(Path home) {
        String env = System.getenv("SLUICE_GIT_COMMIT");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        if (home == null) {
            return "unknown";
        }
        String head = git(home, "rev-parse", "HEAD");
        if (head == null || head.isBlank()) {
            return "unknown";
        }
        String dirty = git(home, "status", "--porcelain", "--untracked-files=no");
        return head.strip() + (dirty != null && !dirty.isBlank() ? "-dirty" : "");
    }

    private static String git(Path dir, String... args) {
        try {
            List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
