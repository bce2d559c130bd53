package dev.sluice.pipeline.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The admin HTTP endpoints of a running pipeline: {@code /metrics} (Prometheus text format), {@code
 * /healthz} (200 unless the pipeline failed) and {@code /readyz} (200 while it reads and writes;
 * 503 while starting, draining, stopping or after the end). Binds {@value #DEFAULT_LISTEN} unless
 * told otherwise; one small thread serves it.
 */
public final class AdminServer implements AutoCloseable {
    public static final String DEFAULT_LISTEN = "127.0.0.1:9464";

    /** The state the probes report. */
    public interface Health {
        /** Null when healthy, else why not. */
        String unhealthy();

        /** Null when ready, else why not. */
        String notReady();
    }

    private final HttpServer server;
    private final ExecutorService executor;

    private AdminServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving on {@code listen} ({@code host:port}, {@code [v6]:port}, or {@code :port} for
     * every interface; port 0 picks a free one).
     */
    public static AdminServer start(String listen, PrometheusRegistry registry, Health health)
            throws IOException {
        HttpServer server = HttpServer.create(address(listen), 16);
        PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
        server.createContext(
                "/metrics",
                ex -> {
                    ByteArrayOutputStream body = new ByteArrayOutputStream(16 << 10);
                    writer.write(body, registry.scrape());
                    respond(ex, 200, writer.getContentType(), body.toByteArray());
                });
        server.createContext("/healthz", ex -> probe(ex, health.unhealthy()));
        server.createContext("/readyz", ex -> probe(ex, health.notReady()));
        ExecutorService executor =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "sluice-admin");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(executor);
        server.start();
        return new AdminServer(server, executor);
    }

    static InetSocketAddress address(String listen) {
        int colon = listen.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "admin.listen must be host:port, got '" + listen + "'");
        }
        String host = listen.substring(0, colon);
        int port = Integer.parseInt(listen.substring(colon + 1));
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    private static void probe(HttpExchange ex, String problem) throws IOException {
        byte[] body = ((problem == null ? "ok" : problem) + "\n").getBytes(StandardCharsets.UTF_8);
        respond(ex, problem == null ? 200 : 503, "text/plain; charset=utf-8", body);
    }

    private static void respond(HttpExchange ex, int status, String type, byte[] body)
            throws IOException {
        try (ex) {
            ex.getResponseHeaders().set("Content-Type", type);
            boolean head = "HEAD".equals(ex.getRequestMethod());
            ex.sendResponseHeaders(status, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** The bound address (with the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
