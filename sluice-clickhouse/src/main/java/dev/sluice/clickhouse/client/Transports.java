package dev.sluice.clickhouse.client;

import java.util.EnumMap;
import java.util.Map;
import java.util.ServiceLoader;

/** The registered {@link TransportProvider}s, by transport: loaded once, on first use. */
final class Transports {
    /** Null until first used; a failed load is not kept, so every open names the problem. */
    private static volatile Map<ConnectionConfig.Transport, TransportProvider> registered;

    private Transports() {}

    /** Opens a client through the registered provider of {@code config}'s transport. */
    static ClickHouseClient open(ConnectionConfig config) {
        return open(config, registered());
    }

    static ClickHouseClient open(
            ConnectionConfig config, Map<ConnectionConfig.Transport, TransportProvider> providers) {
        TransportProvider provider = providers.get(config.transport());
        if (provider == null) {
            throw new IllegalStateException(
                    "no "
                            + config.transport()
                            + " transport on the class path for "
                            + config.address()
                            + ": sluice-clickhouse registers it in"
                            + " META-INF/services/"
                            + TransportProvider.class.getName()
                            + ", which a repackaged jar must keep");
        }
        return provider.open(config);
    }

    /**
     * The providers by transport.
     *
     * @throws IllegalStateException when two providers claim one transport, or one claims the
     *     native protocol (built in)
     */
    static Map<ConnectionConfig.Transport, TransportProvider> index(
            Iterable<TransportProvider> providers) {
        Map<ConnectionConfig.Transport, TransportProvider> byTransport =
                new EnumMap<>(ConnectionConfig.Transport.class);
        for (TransportProvider p : providers) {
            if (p.transport() == ConnectionConfig.Transport.NATIVE) {
                throw new IllegalStateException(
                        p.getClass().getName() + " claims the native transport, which is built in");
            }
            TransportProvider before = byTransport.putIfAbsent(p.transport(), p);
            if (before != null) {
                throw new IllegalStateException(
                        "two providers of the "
                                + p.transport()
                                + " transport on the class path: "
                                + before.getClass().getName()
                                + " and "
                                + p.getClass().getName());
            }
        }
        return byTransport;
    }

    private static Map<ConnectionConfig.Transport, TransportProvider> registered() {
        Map<ConnectionConfig.Transport, TransportProvider> providers = registered;
        if (providers == null) {
            // The interface's own loader: the providers are in its jar, whatever the calling
            // thread's context loader (a Connect plugin's or a Flink job's) can see.
            providers =
                    index(
                            ServiceLoader.load(
                                    TransportProvider.class,
                                    TransportProvider.class.getClassLoader()));
            registered = providers; // two threads may both load: the same result either way
        }
        return providers;
    }
}
