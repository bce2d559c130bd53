package dev.sluice.pipeline.decode.avro.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.time.ManualClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's retries, refusals and credentials, against a scripted HTTP server in this process:
 * the answers a real registry gives only when it is in trouble (503, 429, a proxy's HTML 404). The
 * registry's real behaviour is tested against Apicurio in {@code RegistryIT}.
 */
class RegistryClientTest {
    private HttpServer server;
    private final Deque<int[]> statuses = new ArrayDeque<>(); // {status} per request, then 200
    private final List<String> authorizations = new ArrayList<>();
    private String body404 = "{\"error_code\":40403,\"message\":\"Schema 7 not found.\"}";

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(
                "/api",
                ex -> {
                    authorizations.add(ex.getRequestHeaders().getFirst("Authorization"));
                    int status = statuses.isEmpty() ? 200 : statuses.poll()[0];
                    String body =
                            switch (status) {
                                case 200 -> "{\"schema\":\"\\\"string\\\"\"}";
                                case 404 -> body404;
                                default -> "{\"error_code\":50001,\"message\":\"busy\"}";
                            };
                    byte[] b = body.getBytes(StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(status, b.length);
                    ex.getResponseBody().write(b);
                    ex.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RegistrySpec spec(String user, Path passwordFile, Duration giveUpAfter) {
        return new RegistrySpec(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/api/",
                user,
                passwordFile,
                null,
                Duration.ofSeconds(5),
                giveUpAfter,
                Duration.ofMinutes(1),
                null);
    }

    @Test
    void transientAnswersAreRetriedWithBackoff() throws Exception {
        statuses.add(new int[] {503});
        statuses.add(new int[] {429});
        statuses.add(new int[] {500});
        ManualClock clock = new ManualClock();
        RegistryClient c =
                new RegistryClient(
                        spec(null, null, Duration.ofSeconds(30)),
                        clock,
                        Map.<String, String>of()::get);
        assertThat(c.schemaById(7).schema()).isEqualTo("\"string\"");
        assertThat(c.schemaById(7).type()).isEqualTo("AVRO");
        assertThat(clock.nanoTime()).as("slept 200 + 400 + 800 ms").isEqualTo(1_400_000_000L);
        assertThat(authorizations).hasSize(5).containsOnlyNulls();
    }

    @Test
    void pastGiveUpAfterTheRegistryIsUnavailable() {
        for (int i = 0; i < 100; i++) {
            statuses.add(new int[] {503});
        }
        ManualClock clock = new ManualClock();
        RegistryClient c =
                new RegistryClient(
                        spec(null, null, Duration.ofSeconds(10)),
                        clock,
                        Map.<String, String>of()::get);
        assertThatThrownBy(() -> c.schemaById(7))
                .isInstanceOf(DecoderUnavailableException.class)
                .hasMessageEndingWith(
                        "/api did not answer GET /schemas/ids/7 in 6 attempt(s) over 10 s"
                                + " (registry.give_up_after); last: HTTP 503 50001: busy");
        assertThat(clock.nanoTime()).isLessThanOrEqualTo(10_000_000_000L);
    }

    @Test
    void notFoundWithAnErrorCodeIsTheRecordsFaultWithoutOneTheConfigurations() {
        statuses.add(new int[] {404});
        RegistryClient c =
                new RegistryClient(
                        spec(null, null, Duration.ZERO),
                        new ManualClock(),
                        Map.<String, String>of()::get);
        assertThatThrownBy(() -> c.schemaById(7))
                .isInstanceOf(RegistryException.class)
                .hasMessage("HTTP 404 40403: Schema 7 not found.");
        body404 = "<html>Not Found</html>";
        statuses.add(new int[] {404});
        assertThatThrownBy(() -> c.schemaById(7))
                .isInstanceOf(DecoderUnavailableException.class)
                .hasMessageContaining("HTTP 404 without a registry error code")
                .hasMessageContaining("is url the base of a Confluent-compatible API");
    }

    @Test
    void basicAuthFromAPasswordFileThatNeverShows() throws Exception {
        Path file = Files.createTempFile("registry", ".password");
        try {
            Files.writeString(file, "s3cr3t-pw\nsecond line ignored\n");
            statuses.add(new int[] {401});
            RegistryClient c =
                    new RegistryClient(
                            spec("svc", file, Duration.ofMinutes(1)),
                            new ManualClock(),
                            Map.<String, String>of()::get);
            assertThatThrownBy(() -> c.schemaById(7))
                    .isInstanceOf(DecoderUnavailableException.class)
                    .hasMessageContaining("refused the request (GET /schemas/ids/7: HTTP 401")
                    .hasMessageNotContaining("s3cr3t");
            assertThat(c.schemaById(7).schema()).isEqualTo("\"string\"");
            assertThat(authorizations)
                    .containsOnly(
                            "Basic "
                                    + Base64.getEncoder()
                                            .encodeToString(
                                                    "svc:s3cr3t-pw"
                                                            .getBytes(StandardCharsets.UTF_8)));
            assertThat(c.toString()).doesNotContain("s3cr3t").contains("basic auth");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void badSettingsAreStartUpErrors() {
        ManualClock clock = new ManualClock();
        assertThatThrownBy(
                        () ->
                                new RegistryClient(
                                        spec("u", Path.of("/no/such/file"), Duration.ZERO),
                                        clock,
                                        Map.<String, String>of()::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registry password_file /no/such/file: cannot read it");
        RegistrySpec env =
                new RegistrySpec(
                        "http://h:1",
                        "u",
                        null,
                        "NOPE",
                        Duration.ofSeconds(1),
                        Duration.ZERO,
                        Duration.ZERO,
                        null);
        assertThatThrownBy(() -> new RegistryClient(env, clock, Map.<String, String>of()::get))
                .hasMessage("registry password_env: the variable NOPE is not set");
        RegistrySpec userInUrl =
                new RegistrySpec(
                        "http://u:pw@h:1",
                        null,
                        null,
                        null,
                        Duration.ofSeconds(1),
                        Duration.ZERO,
                        Duration.ZERO,
                        null);
        assertThatThrownBy(
                        () -> new RegistryClient(userInUrl, clock, Map.<String, String>of()::get))
                .hasMessageContaining("not in the URL")
                .hasMessageNotContaining("pw@");
    }
}
