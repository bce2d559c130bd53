package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.TransportProvider;

/**
 * The HTTP transport for {@link ClickHouseClient#open} ({@code http://}, {@code https://} URLs),
 * registered in {@code META-INF/services/dev.sluice.clickhouse.client.TransportProvider}.
 */
public final class HttpTransportProvider implements TransportProvider {
    /** For {@link java.util.ServiceLoader}. */
    public HttpTransportProvider() {}

    @Override
    public ConnectionConfig.Transport transport() {
        return ConnectionConfig.Transport.HTTP;
    }

    @Override
    public ClickHouseClient open(ConnectionConfig config) {
        return HttpConnection.open(config);
    }
}
