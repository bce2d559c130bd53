package dev.sluice.cli;

/** Where the ClickHouse URL comes from when a command is not given one. */
final class Urls {
    private Urls() {}

    static String resolve(String given) {
        if (given != null && !given.isBlank()) {
            return given;
        }
        String env = System.getenv("CLICKHOUSE_URL");
        if (env != null && !env.isBlank()) {
            return env;
        }
        throw new CliException("no ClickHouse URL: pass --url or set CLICKHOUSE_URL");
    }
}
