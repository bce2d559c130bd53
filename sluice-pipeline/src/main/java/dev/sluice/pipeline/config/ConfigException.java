package dev.sluice.pipeline.config;

/**
 * The configuration is wrong. The message names where — {@code file:line:column} — and which key,
 * by its dotted path ({@code sink.clickhouse.batch.max_rows}, {@code transforms[2].rename}), then
 * what is wrong: {@code pipeline.yaml:14:7: sink.clickhouse.batch.max_row: unknown key (did you
 * mean max_rows?)}.
 */
public final class ConfigException extends RuntimeException {
    private final String path;
    private final String problem;

    ConfigException(String location, String path, String problem) {
        super(
                (location.isEmpty() ? "" : location + ": ")
                        + (path.isEmpty() ? "" : path + ": ")
                        + problem);
        this.path = path;
        this.problem = problem;
    }

    /** The dotted path of the offending key ("" for the whole document). */
    public String path() {
        return path;
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem;
    }
}
