package dev.sluice.clickhouse.client;

/**
 * Opens clients for a transport other than the native protocol; {@link ClickHouseClient#open} finds
 * the providers with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/dev.sluice.clickhouse.client.TransportProvider}).
 *
 * <p>Why a service and not a call: the HTTP transport ({@code dev.sluice.clickhouse.http}) is built
 * on this package — it implements {@link ClickHouseClient} and throws this package's exceptions —
 * so this package naming it would make the two packages depend on each other
 * (docs/adr/0012-table-module.md). sluice-clickhouse registers {@code
 * dev.sluice.clickhouse.http.HttpTransportProvider}; a repackaged jar must keep its {@code
 * META-INF/services} files.
 *
 * <p>An implementation is public, with a public no-argument constructor, and thread-safe.
 */
public interface TransportProvider {
    /**
     * The transport this provider opens clients for (never {@link
     * ConnectionConfig.Transport#NATIVE}, which is built in).
     */
    ConnectionConfig.Transport transport();

    /**
     * Opens a client for {@code config}, whose {@link ConnectionConfig#transport()} is {@link
     * #transport()}: connected and ready, as {@link ClickHouseClient#open} promises.
     */
    ClickHouseClient open(ConnectionConfig config);
}
