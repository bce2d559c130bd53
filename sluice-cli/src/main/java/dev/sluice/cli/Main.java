package dev.sluice.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command. */
@Command(
        name = "sluice",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Moves data into ClickHouse over the native protocol, fast.")
public final class Main implements Runnable {

    /**
     * The subcommands, in the order {@code sluice --help} lists them. picocli builds a command's
     * model (reflection over every option, converters, usage text) when it is added; building all
     * of them — {@code bench} with every rig's axes — costs more CPU than a one-row {@code load}
     * itself, so a command line that names its subcommand gets only that one.
     */
    private static final Map<String, Supplier<Object>> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("quickstart", QuickstartCommand::new);
        COMMANDS.put("load", LoadCommand::new);
        COMMANDS.put("run", RunCommand::new);
        COMMANDS.put("check", CheckCommand::new);
        COMMANDS.put("ping", PingCommand::new);
        COMMANDS.put("bench", BenchCommand::new);
    }

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        int code = execute(args);
        TrainingRun.recordExit(code);
        System.exit(code);
    }

    /** Runs the command line and returns the exit code (tests call this). */
    public static int execute(String... args) {
        CommandLine cli = commandLine(args);
        cli.setExecutionExceptionHandler(new Errors());
        return cli.execute(args);
    }

    /**
     * The command line with the subcommand {@code args} starts with, or with every subcommand when
     * the first argument names none (no arguments, {@code --help}, {@code --version}, a typo — so
     * that help and picocli's suggestions see them all).
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        String first = args.length > 0 ? args[0] : "";
        if (COMMANDS.containsKey(first)) {
            add(cli, first);
        } else {
            COMMANDS.keySet().forEach(name -> add(cli, name));
        }
        return cli;
    }

    private static void add(CommandLine cli, String name) {
        cli.addSubcommand(name, COMMANDS.get(name).get());
        if (name.equals("bench")) {
            BenchCommand.addRigs(cli.getSubcommands().get("bench"));
        }
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
