package dev.sluice.cli;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.column.ColumnValueException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;

/**
 * Turns a failure into one clear line on stderr and a non-zero exit code. The stack trace is
 * printed only with {@code SLUICE_DEBUG=1}, since expected failures (a wrong URL, a server error)
 * are not bugs.
 */
final class Errors implements CommandLine.IExecutionExceptionHandler {
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;

    @Override
    public int handleExecutionException(
            Exception e, CommandLine cli, CommandLine.ParseResult parseResult) {
        String message = message(e);
        cli.getErr().println("sluice " + cli.getCommandName() + ": " + message);
        if ("1".equals(System.getenv("SLUICE_DEBUG"))) {
            e.printStackTrace(cli.getErr());
        }
        return e instanceof IllegalArgumentException ? EXIT_USAGE : EXIT_FAILURE;
    }

    private static String message(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "cannot read " + e.getMessage() + ": no such file"; // the message is the path
        }
        if (e instanceof AccessDeniedException) {
            return "cannot read " + e.getMessage() + ": permission denied";
        }
        if (e instanceof ClickHouseException
                || e instanceof ColumnValueException
                || e instanceof IllegalArgumentException
                || e instanceof CliException
                || e instanceof dev.sluice.pipeline.config.ConfigException) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
