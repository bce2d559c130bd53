package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the transports other than native are found, and what is said when they are not. */
class TransportsTest {
    /** A provider as a plug-in would declare one; the registry never opens it here. */
    static class OneHttp implements TransportProvider {
        @Override
        public ConnectionConfig.Transport transport() {
            return ConnectionConfig.Transport.HTTP;
        }

        @Override
        public ClickHouseClient open(ConnectionConfig config) {
            throw new AssertionError("not opened by these tests");
        }
    }

    static class AnotherHttp extends OneHttp {}

    static class ClaimsNative extends OneHttp {
        @Override
        public ConnectionConfig.Transport transport() {
            return ConnectionConfig.Transport.NATIVE;
        }
    }

    @Test
    void providersAreIndexedByTransport() {
        OneHttp http = new OneHttp();
        assertThat(Transports.index(List.of(http)))
                .containsExactly(Map.entry(ConnectionConfig.Transport.HTTP, http));
    }

    @Test
    void twoProvidersOfOneTransportAreRefusedNamingBoth() {
        assertThatThrownBy(() -> Transports.index(List.of(new OneHttp(), new AnotherHttp())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("two providers of the HTTP transport")
                .hasMessageContaining(OneHttp.class.getName())
                .hasMessageContaining(AnotherHttp.class.getName());
    }

    @Test
    void aProviderOfTheNativeTransportIsRefused() {
        assertThatThrownBy(() -> Transports.index(List.of(new ClaimsNative())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        ClaimsNative.class.getName()
                                + " claims the native transport, which is built in");
    }

    @Test
    void aMissingTransportNamesTheServicesFileAndTheServer() {
        ConnectionConfig config =
                ConnectionConfig.parse("http://default:secret@example.net:8123/db");
        assertThatThrownBy(() -> Transports.open(config, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no HTTP transport on the class path for example.net:8123")
                .hasMessageContaining(
                        "META-INF/services/dev.sluice.clickhouse.client.TransportProvider")
                .hasMessageNotContaining("secret");
    }
}
