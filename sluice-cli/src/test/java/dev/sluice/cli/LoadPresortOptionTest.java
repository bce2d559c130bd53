package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code sluice load --presort[=off|on|auto]}: bare is on, and the inputs around it stay inputs.
 */
class LoadPresortOptionTest {

    private static LoadCommand parse(String... args) {
        CommandLine cli = Main.commandLine(args);
        cli.parseArgs(args);
        return cli.getSubcommands().get("load").getCommand();
    }

    private static PresortMode presort(String... args) {
        return parse(args).spec().sink().presort();
    }

    private static final String URL = "--url=clickhouse://localhost:9000/db";

    @Test
    void bareIsOnAValueSaysWhichAndNoneIsOff() {
        assertThat(presort("load", "a.ndjson", "--into", "db.t", URL)).isEqualTo(PresortMode.OFF);
        assertThat(presort("load", "a.ndjson", "--into", "db.t", URL, "--presort"))
                .isEqualTo(PresortMode.ON);
        assertThat(presort("load", "a.ndjson", "--into", "db.t", URL, "--presort=auto"))
                .isEqualTo(PresortMode.AUTO);
        assertThat(presort("load", "a.ndjson", "--into", "db.t", URL, "--presort=off"))
                .isEqualTo(PresortMode.OFF);
        assertThat(presort("load", "a.ndjson", "--into", "db.t", URL, "--presort=on"))
                .isEqualTo(PresortMode.ON);
    }

    @Test
    void anInputAfterABarePresortIsStillAnInput() {
        LoadCommand c = parse("load", "--presort", "a.ndjson", "b.ndjson", "--into", "db.t", URL);
        assertThat(c.presort).isEqualTo(PresortMode.ON);
        assertThat(c.inputs).isEqualTo(List.of("a.ndjson", "b.ndjson"));
    }

    @Test
    void aBadValueIsAUsageErrorNamingTheOptionAndTheValues() {
        String[] args = {"load", "a.ndjson", "--into", "db.t", URL, "--presort=fast"};
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine(args);
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute(args)).isEqualTo(2);
        assertThat(err.toString())
                .contains("--presort")
                .contains("expected off, on or auto (or true, false), got 'fast'");
    }

    @Test
    void theHelpListsTheValues() {
        CommandLine load = Main.commandLine("load").getSubcommands().get("load");
        assertThat(load.getUsageMessage()).contains("--presort[=off|on|auto]");
    }
}
