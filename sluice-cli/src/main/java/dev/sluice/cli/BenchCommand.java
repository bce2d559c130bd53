package dev.sluice.cli;

import dev.sluice.rigs.Axis;
import dev.sluice.rigs.Rig;
import dev.sluice.rigs.Rigs;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code sluice bench}: the benchmark rigs (one subcommand each, and {@code all}) and {@code
 * report}. The rigs' subcommands are built from their axes ({@link Rig#axes()}), so a rig's flags
 * and its defaults live in one place, the rig.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Measure Sluice against ClickHouse: every arm side by side in one run, a JSONL record"
                    + " per repetition (DIR/results.jsonl, appended as it goes) and a"
                    + " self-contained HTML report (DIR/report.html).",
            "Default server: $CLICKHOUSE_URL, else the project's private ClickHouse (started if"
                    + " needed). Axis flags take comma-separated lists."
        },
        subcommands = {BenchReportCommand.class})
final class BenchCommand implements Runnable {
    @CommandLine.Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Adds a subcommand per rig, and {@code all}, to the {@code bench} command line. */
    static void addRigs(CommandLine bench) {
        for (Rig rig : Rigs.all()) {
            bench.addSubcommand(rig.name(), command(List.of(rig), rig.name(), rig.description()));
        }
        bench.addSubcommand(
                "all",
                command(
                        Rigs.all(),
                        "all",
                        "Every rig in turn ("
                                + String.join(", ", Rigs.all().stream().map(Rig::name).toList())
                                + ") with its default axes, into one results file and report."));
    }

    private static CommandLine command(List<Rig> rigs, String name, String description) {
        BenchRunner runner = new BenchRunner(rigs);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(runner);
        spec.name(name);
        spec.addOption(
                OptionSpec.builder("-h", "--help")
                        .usageHelp(true)
                        .description("Show this help message and exit.")
                        .build());
        spec.usageMessage().description(description);
        spec.addMixin("common", CommandSpec.forAnnotatedObject(runner.common));
        if (rigs.size() == 1) {
            for (Axis a : rigs.get(0).axes()) {
                spec.addOption(
                        OptionSpec.builder("--" + a.name())
                                .paramLabel("LIST")
                                .type(String.class)
                                .description(
                                        a.description()
                                                + " (default: "
                                                + String.join(",", a.defaults())
                                                + "; --quick: "
                                                + String.join(",", a.quick())
                                                + ")")
                                .build());
            }
        }
        runner.spec = spec;
        return new CommandLine(spec);
    }
}
