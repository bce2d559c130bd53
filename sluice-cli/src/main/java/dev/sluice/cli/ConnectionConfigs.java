package dev.sluice.cli;

import dev.sluice.clickhouse.client.ConnectionConfig;

/** Printing a URL without its password. */
final class ConnectionConfigs {
    private ConnectionConfigs() {}

    static String address(String url) {
        return ConnectionConfig.parse(url).toString();
    }
}
