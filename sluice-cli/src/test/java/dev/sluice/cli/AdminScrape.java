package dev.sluice.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a running pipeline's {@code /metrics} (Prometheus text format) with a plain HTTP client, as
 * a scraper would.
 */
final class AdminScrape {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI uri;

    AdminScrape(int port) {
        this.uri = URI.create("http://127.0.0.1:" + port + "/metrics");
    }

    /** A free port on the loopback interface for {@code admin.listen}. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * One scrape: the value of every series, keyed by name with the labels summed away (a shard's
     * or a class's series add up); null when the server does not answer (not started yet, or gone).
     */
    Map<String, Double> scrape() throws InterruptedException {
        HttpResponse<String> r;
        try {
            r =
                    http.send(
                            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        }
        if (r.statusCode() != 200) {
            return null;
        }
        Map<String, Double> values = new HashMap<>();
        for (String line : r.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name = line.substring(0, brace >= 0 ? brace : line.indexOf(' '));
            values.merge(name, Double.parseDouble(line.substring(space + 1)), Double::sum);
            if (brace >= 0) {
                // Also keyed with its labels, for series such as errors by class.
                values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return values;
    }
}
