package dev.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command. */
@Command(
        name = "sluice",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Moves data into ClickHouse over the native protocol, fast.",
        subcommands = {
            QuickstartCommand.class,
            LoadCommand.class,
            RunCommand.class,
            CheckCommand.class,
            PingCommand.class,
            BenchCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (tests call this). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Main());
        BenchCommand.addRigs(cli.getSubcommands().get("bench"));
        cli.setExecutionExceptionHandler(new Errors());
        return cli.execute(args);
    }

    /** The version printed by {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {
                "sluice " + (v == null ? "development build" : v),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
            };
        }
    }
}
