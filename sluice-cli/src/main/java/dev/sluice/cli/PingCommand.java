package dev.sluice.cli;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice ping}: connect, report the server, round trip. */
@Command(
        name = "ping",
        mixinStandardHelpOptions = true,
        description = "Connect to ClickHouse and print what the server reports about itself.")
final class PingCommand implements Callable<Integer> {
    @Option(
            names = "--url",
            description =
                    "clickhouse://user[:password]@host:port/db?compression=lz4|zstd|none"
                            + "&secure=true..., or http(s)://... (default: $CLICKHOUSE_URL)")
    String url;

    @Override
    public Integer call() {
        ConnectionConfig config = ConnectionConfig.parse(Urls.resolve(url));
        long start = System.nanoTime();
        try (ClickHouseClient c = ClickHouseClient.open(config)) {
            c.queryRows("SELECT 1");
            long micros = (System.nanoTime() - start) / 1000;
            System.out.println("connected to " + config);
            System.out.println("server     " + c.server());
            System.out.println("timezone   " + c.server().timezone());
            System.out.println("round trip " + micros + " µs (connect, handshake, SELECT 1)");
        }
        return 0;
    }
}
