package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Which subcommands' models {@link Main} builds for a command line, and what users see of it. */
class MainTest {
    private static final String[] ALL = {"quickstart", "load", "run", "check", "ping", "bench"};

    @Test
    void aCommandLineNamingItsSubcommandGetsOnlyThatOne() {
        for (String name : ALL) {
            assertThat(Main.commandLine(name, "--help").getSubcommands().keySet())
                    .as(name)
                    .containsExactly(name);
        }
        assertThat(
                        Main.commandLine("bench", "peers")
                                .getSubcommands()
                                .get("bench")
                                .getSubcommands())
                .as("bench keeps its rigs")
                .containsKeys("peers", "all", "report");
    }

    @Test
    void helpVersionNothingOrATypoGetEverySubcommandInOrder() {
        for (String[] args :
                new String[][] {
                    {}, {"--help"}, {"-h"}, {"--version"}, {"lod"}, {"--help", "load"}
                }) {
            assertThat(Main.commandLine(args).getSubcommands().keySet())
                    .as(String.join(" ", args))
                    .containsExactly(ALL);
        }
    }

    @Test
    void aSubcommandsUsageAndErrorsReadAsBefore() {
        CommandLine load = Main.commandLine("load").getSubcommands().get("load");
        assertThat(load.getUsageMessage()).startsWith("Usage: sluice load ");

        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine("lod");
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("lod")).isEqualTo(2);
        assertThat(err.toString())
                .contains("Unmatched argument at index 0: 'lod'")
                .contains("load");

        StringWriter loadErr = new StringWriter();
        String[] bogus = {"load", "in.ndjson", "--into", "db.t", "--bogus"};
        CommandLine loadCli = Main.commandLine(bogus);
        loadCli.setErr(new PrintWriter(loadErr));
        assertThat(loadCli.execute(bogus)).isEqualTo(2);
        assertThat(loadErr.toString())
                .contains("Unknown option: '--bogus'")
                .contains("Usage: sluice load ");
    }
}
