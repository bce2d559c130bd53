package dev.sluice.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.TransportProvider;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The HTTP transport is registered where {@link ClickHouseClient#open} looks for it. */
class HttpTransportProviderTest {
    @Test
    void theServicesFileNamesTheHttpProvider() {
        assertThat(ServiceLoader.load(TransportProvider.class).stream())
                .extracting(ServiceLoader.Provider::type)
                .containsExactly(HttpTransportProvider.class);
    }

    @Test
    void anHttpUrlOpensAnHttpConnection() {
        // Port 1 is closed: the refusal comes from HttpConnection's connect, so open got there.
        assertThatThrownBy(() -> ClickHouseClient.open("http://default@127.0.0.1:1/default"))
                .isInstanceOf(ConnectionException.class)
                .hasMessageContaining("cannot connect to ClickHouse at 127.0.0.1:1");
    }
}
