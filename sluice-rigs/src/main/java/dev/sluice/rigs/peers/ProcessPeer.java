package dev.sluice.rigs.peers;

import dev.sluice.rigs.ProcStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client run as a whole process, as users run it: {@code clickhouse-client} reading a file on
 * stdin, or {@code sluice load}. Time is start to exit; CPU is the child's (user + system, reaped
 * by this JVM).
 */
final class ProcessPeer implements Peer {
    private static final Pattern SLUICE_SUMMARY =
            Pattern.compile("([\\d,]+) rows written in ([\\d.]+) s");

    private final String name;
    private final String description;
    private final Function<PeerRun, List<String>> command;
    private final Function<PeerRun, Path> stdin;

    private ProcessPeer(
            String name,
            String description,
            Function<PeerRun, List<String>> command,
            Function<PeerRun, Path> stdin) {
        this.name = name;
        this.description = description;
        this.command = command;
        this.stdin = stdin;
    }

    /** {@code clickhouse-client --query "INSERT INTO t FORMAT <format>" < file}, LZ4. */
    static ProcessPeer clickhouseClient(
            String name, String clientBin, String format, Function<PeerRun, Path> file) {
        return new ProcessPeer(
                name,
                "clickhouse-client --query \"INSERT INTO t FORMAT " + format + "\" < file (LZ4)",
                run -> {
                    List<String> cmd =
                            new ArrayList<>(
                                    List.of(
                                            clientBin,
                                            "--host",
                                            run.host(),
                                            "--port",
                                            Integer.toString(run.nativePort()),
                                            "--user",
                                            run.user(),
                                            "--compression",
                                            "1",
                                            "--network_compression_method",
                                            "lz4",
                                            "--query",
                                            "INSERT INTO " + run.table() + " FORMAT " + format));
                    if (!run.password().isEmpty()) {
                        // from a file only its owner reads: never on a command line (ps shows
                        // those)
                        cmd.add("--config-file");
                        cmd.add(passwordConfig(run).toString());
                    }
                    return cmd;
                },
                file);
    }

    /** A clickhouse-client configuration holding the password, readable by its owner only. */
    static Path passwordConfig(PeerRun run) {
        try {
            Path f = run.workDir().resolve("clickhouse-client.xml");
            if (!Files.exists(f)) {
                Files.createFile(
                        f,
                        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                java.nio.file.attribute.PosixFilePermissions.fromString(
                                        "rw-------")));
                String escaped =
                        run.password()
                                .replace("&", "&amp;")
                                .replace("<", "&lt;")
                                .replace(">", "&gt;");
                Files.writeString(
                        f,
                        "<config><password>" + escaped + "</password></config>\n",
                        StandardCharsets.UTF_8);
            }
            return f;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(
                    "cannot write the clickhouse-client configuration: " + e.getMessage(), e);
        }
    }

    /** {@code sluice load FILE --into t [args]}. */
    static ProcessPeer sluiceLoad(
            String name, List<String> sluice, Function<PeerRun, Path> file, List<String> args) {
        return new ProcessPeer(
                name,
                "sluice load FILE --into t "
                        + String.join(" ", args)
                        + " (a whole process: JVM start to exit)",
                run -> {
                    List<String> cmd = new ArrayList<>(sluice);
                    cmd.addAll(
                            List.of(
                                    "load",
                                    file.apply(run).toString(),
                                    "--into",
                                    run.table(),
                                    "--url",
                                    run.nativeUrlWithoutPassword()));
                    cmd.addAll(args);
                    return cmd;
                },
                null);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Outcome insert(PeerRun run) throws IOException, InterruptedException {
        Path out = Files.createTempFile(run.workDir(), name, ".out");
        Path err = Files.createTempFile(run.workDir(), name, ".err");
        try {
            ProcessBuilder pb =
                    new ProcessBuilder(command.apply(run)).directory(run.workDir().toFile());
            pb.environment().put("SLUICE_PLAIN_PROGRESS", "1");
            if (!run.password().isEmpty()) {
                // sluice reads it from the environment: never on a command line (ps shows those)
                pb.environment().put("CLICKHOUSE_PASSWORD", run.password());
            }
            pb.redirectInput(
                    stdin != null
                            ? ProcessBuilder.Redirect.from(stdin.apply(run).toFile())
                            : ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.redirectOutput(out.toFile());
            pb.redirectError(err.toFile());
            long child0 = ProcStat.childCpuTicks("self");
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(30, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(name + " did not finish in 30 minutes");
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            // waitFor reaped the child, which adds its CPU to this process's cutime/cstime
            double cpu = ProcStat.seconds(ProcStat.childCpuTicks("self") - child0);
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        name
                                + " exited with "
                                + p.exitValue()
                                + ": "
                                + tail(stderr.isBlank() ? stdout : stderr));
            }
            Map<String, Object> extra = new LinkedHashMap<>();
            long reported = -1;
            Matcher m = SLUICE_SUMMARY.matcher(stdout);
            if (m.find()) {
                reported = Long.parseLong(m.group(1).replace(",", ""));
                extra.put("pipeline_seconds", Double.parseDouble(m.group(2)));
            }
            String said = reported >= 0 ? "exit 0, \"" + m.group() + "\"" : "exit 0";
            return new Outcome(reported, seconds, cpu, said, extra);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String tail(String s) {
        String t = s.strip();
        return t.length() > 400 ? "…" + t.substring(t.length() - 400) : t;
    }
}
