package dev.sluice.pipeline.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class AdminServerTest {

    private static HttpResponse<String> get(AdminServer s, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://127.0.0.1:" + s.address().getPort() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesMetricsAndReportsProblemsWith503() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter.builder().name("etl_x_total").help("x").register(registry).inc(2);
        String[] health = {null, "draining"};
        try (AdminServer s =
                AdminServer.start(
                        "127.0.0.1:0",
                        registry,
                        new AdminServer.Health() {
                            @Override
                            public String unhealthy() {
                                return health[0];
                            }

                            @Override
                            public String notReady() {
                                return health[1];
                            }
                        })) {
            HttpResponse<String> metrics = get(s, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            assertThat(metrics.body()).contains("etl_x_total 2.0");
            assertThat(get(s, "/healthz").statusCode()).isEqualTo(200);
            HttpResponse<String> ready = get(s, "/readyz");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).isEqualTo("draining\n");
            health[0] = "failed: boom";
            assertThat(get(s, "/healthz").statusCode()).isEqualTo(503);
        }
    }

    @Test
    void parsesListenAddresses() {
        assertThat(AdminServer.address("127.0.0.1:9464"))
                .isEqualTo(new InetSocketAddress("127.0.0.1", 9464));
        assertThat(AdminServer.address(":9464").getPort()).isEqualTo(9464);
        assertThat(AdminServer.address("[::1]:80").getAddress().isLoopbackAddress()).isTrue();
    }
}
