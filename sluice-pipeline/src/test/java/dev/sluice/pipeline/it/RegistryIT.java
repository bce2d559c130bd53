package dev.sluice.pipeline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.avro.AvroCheck;
import dev.sluice.pipeline.decode.avro.registry.RegistryClient;
import dev.sluice.pipeline.decode.avro.registry.RegistrySchemas;
import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.AvroSpec;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.testing.TestRegistry;
import dev.sluice.pipeline.time.Clock;
import dev.sluice.pipeline.time.ManualClock;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The registry client against a real registry (Apicurio's Confluent API, scripts/registry). */
@Timeout(120)
class RegistryIT {
    private static final String ADDRESS =
            "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"com.acme\",\"fields\":["
                    + "{\"name\":\"city\",\"type\":\"string\"}]}";

    private static String subject(String prefix) {
        return prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
    }

    private static String user(String record) {
        return "{\"type\":\"record\",\"name\":\""
                + record
                + "\",\"namespace\":\"com.acme\","
                + "\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
                + "{\"name\":\"name\",\"type\":\"string\"}]}";
    }

    /** {@code spec} with its URL pointed through {@code proxy}. */
    private static RegistrySpec via(CuttableProxy proxy, RegistrySpec spec) {
        URI u = URI.create(spec.url());
        String url = "http://127.0.0.1:" + proxy.port() + u.getRawPath();
        return new RegistrySpec(
                url,
                spec.username(),
                spec.passwordFile(),
                spec.passwordEnv(),
                spec.timeout(),
                spec.giveUpAfter(),
                spec.unknownIdTtl(),
                spec.subject());
    }

    private static CuttableProxy proxy() throws Exception {
        URI u = URI.create(TestRegistry.url());
        return new CuttableProxy(u.getHost(), u.getPort());
    }

    @Test
    void aSchemaIsFetchedOnceAndServedFromTheCache() throws Exception {
        String schema = user("User" + System.nanoTime());
        int id = TestRegistry.register(subject("users-value"), schema);
        try (CuttableProxy proxy = proxy()) {
            RegistrySpec spec = via(proxy, TestRegistry.spec(Duration.ZERO, Duration.ofMinutes(1)));
            RegistrySchemas schemas =
                    new RegistrySchemas(
                            new RegistryClient(spec, Clock.SYSTEM, System::getenv),
                            Clock.SYSTEM,
                            spec.unknownIdTtl());
            Schema first = schemas.schema(id);
            assertThat(first).isEqualTo(new Schema.Parser().parse(schema));
            int connections = proxy.accepted();
            assertThat(connections).isPositive();
            proxy.goAway(); // the registry is gone: only the cache can answer now
            assertThat(schemas.schema(id)).isSameAs(first);
            assertThat(proxy.accepted()).isEqualTo(connections);
        }
    }

    @Test
    void anUnknownIdIsARecordErrorRememberedForItsTtl() throws Exception {
        ManualClock clock = new ManualClock();
        int unknown = 900_000_000 + ThreadLocalRandom.current().nextInt(1000);
        try (CuttableProxy proxy = proxy()) {
            RegistrySpec spec =
                    via(proxy, TestRegistry.spec(Duration.ZERO, Duration.ofSeconds(30)));
            RegistrySchemas schemas =
                    new RegistrySchemas(
                            new RegistryClient(spec, clock, System::getenv),
                            clock,
                            spec.unknownIdTtl());
            assertThatThrownBy(() -> schemas.schema(unknown))
                    .isInstanceOf(RecordException.class)
                    .hasMessage(
                            "unknown schema id "
                                    + unknown
                                    + " (registry "
                                    + spec.url()
                                    + ": HTTP 404 40403: Schema "
                                    + unknown
                                    + " not found.)");
            proxy.goAway();
            clock.advanceMillis(29_000);
            assertThatThrownBy(() -> schemas.schema(unknown))
                    .as("within the TTL the negative cache answers, the registry is not asked")
                    .isInstanceOf(RecordException.class)
                    .hasMessageStartingWith("unknown schema id " + unknown);
            clock.advanceMillis(2_000);
            assertThatThrownBy(() -> schemas.schema(unknown))
                    .as("past the TTL the registry is asked again, and is gone")
                    .isInstanceOf(DecoderUnavailableException.class)
                    .hasMessageContaining("did not answer GET /schemas/ids/" + unknown);
        }
    }

    @Test
    void basicAuthentication() {
        TestRegistry.url();
        assumeThat(TestRegistry.user())
                .as("the registry runs without authentication (SLUICE_REGISTRY_AUTH=0)")
                .isNotNull();
        int id = TestRegistry.register(subject("auth-value"), user("Auth" + System.nanoTime()));
        RegistrySpec good = TestRegistry.spec();
        assertThat(schemas(good).client().url()).isEqualTo(good.url());

        RegistrySpec wrong =
                new RegistrySpec(
                        good.url(),
                        good.username(),
                        null,
                        "SLUICE_TEST_WRONG_PASSWORD",
                        good.timeout(),
                        good.giveUpAfter(),
                        good.unknownIdTtl(),
                        null);
        RegistrySchemas refused =
                new RegistrySchemas(
                        new RegistryClient(
                                wrong,
                                Clock.SYSTEM,
                                Map.of("SLUICE_TEST_WRONG_PASSWORD", "not-it")::get),
                        Clock.SYSTEM,
                        wrong.unknownIdTtl());
        assertThatThrownBy(() -> refused.schema(id))
                .isInstanceOf(DecoderUnavailableException.class)
                .hasMessageContaining("refused the request (GET /schemas/ids/" + id + ": HTTP 401")
                .hasMessageContaining("check registry.username and its password")
                .hasMessageNotContaining("not-it");

        RegistrySpec anonymous =
                new RegistrySpec(
                        good.url(),
                        null,
                        null,
                        null,
                        good.timeout(),
                        good.giveUpAfter(),
                        good.unknownIdTtl(),
                        null);
        assertThatThrownBy(() -> schemas(anonymous).schema(id))
                .isInstanceOf(DecoderUnavailableException.class)
                .hasMessageContaining("HTTP 401");
    }

    @Test
    void aRegistryThatDoesNotAnswerIsRetriedThenStopsThePipeline() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: connections are refused
        }
        RegistrySpec spec =
                new RegistrySpec(
                        "http://127.0.0.1:" + port + "/apis/ccompat/v7",
                        null,
                        null,
                        null,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(1),
                        null);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> schemas(spec).schema(1))
                .isInstanceOf(DecoderUnavailableException.class)
                .hasMessageMatching(
                        "schema registry http://127.0.0.1:"
                                + port
                                + "/apis/ccompat/v7 did not answer GET /schemas/ids/1 in [2-9]"
                                + " attempt\\(s\\) over 1 s \\(registry.give_up_after\\); last:"
                                + " ConnectException.*");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void notTheApisBaseUrlSaysSo() {
        URI u = URI.create(TestRegistry.url());
        RegistrySpec spec =
                new RegistrySpec(
                        "http://" + u.getHost() + ":" + u.getPort() + "/apis",
                        TestRegistry.user(),
                        TestRegistry.passwordFile(),
                        null,
                        Duration.ofSeconds(5),
                        Duration.ZERO,
                        Duration.ofMinutes(1),
                        null);
        assertThatThrownBy(() -> schemas(spec).schema(1))
                .isInstanceOf(DecoderUnavailableException.class)
                .hasMessageContaining("is url the base of a Confluent-compatible API");
    }

    @Test
    void aSchemaThatIsNotAvroIsARecordError() throws Exception {
        int id =
                TestRegistry.register(
                        subject("json-value"),
                        "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}",
                        "JSON",
                        List.of());
        assertThatThrownBy(() -> schemas(TestRegistry.spec()).schema(id))
                .isInstanceOf(RecordException.class)
                .hasMessage("schema id " + id + " is a JSON schema, not Avro");
    }

    @Test
    void referencesAreResolvedFromTheirSubjects() throws Exception {
        String addressSubject = subject("address");
        TestRegistry.register(addressSubject, ADDRESS);
        String customer =
                "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.acme\",\"fields\":["
                        + "{\"name\":\"id\",\"type\":\"long\"},"
                        + "{\"name\":\"home\",\"type\":\"com.acme.Address\"}]}";
        int id =
                TestRegistry.register(
                        subject("customer-value"),
                        customer,
                        "AVRO",
                        List.of(
                                Map.of(
                                        "name",
                                        "com.acme.Address",
                                        "subject",
                                        addressSubject,
                                        "version",
                                        1)));
        Schema s = schemas(TestRegistry.spec()).schema(id);
        assertThat(s.getField("home").schema().getField("city").schema().getType())
                .isEqualTo(Schema.Type.STRING);
    }

    @Test
    void checkReportsTheRegistryAndTheSubject() {
        String subject = subject("checked-value");
        String record = "Checked" + System.nanoTime();
        int id = TestRegistry.register(subject, user(record));
        RegistrySpec r = TestRegistry.spec();
        RegistrySpec withSubject =
                new RegistrySpec(
                        r.url(),
                        r.username(),
                        r.passwordFile(),
                        null,
                        r.timeout(),
                        r.giveUpAfter(),
                        r.unknownIdTtl(),
                        subject);
        List<AvroCheck.Finding> findings =
                AvroCheck.check(
                        new AvroSpec(AvroFraming.CONFLUENT, null, withSubject),
                        Clock.SYSTEM,
                        System::getenv);
        assertThat(findings).hasSize(2).allMatch(AvroCheck.Finding::ok);
        AvroCheck.Report report =
                AvroCheck.report(
                        new AvroSpec(AvroFraming.CONFLUENT, null, withSubject),
                        Clock.SYSTEM,
                        System::getenv);
        assertThat(report.schema()).isEqualTo(new Schema.Parser().parse(user(record)));
        assertThat(report.describe())
                .isEqualTo("subject " + subject + "'s latest schema (id " + id + ")");
        assertThat(findings.get(0).text())
                .startsWith("schema registry " + r.url() + " reachable (");
        assertThat(findings.get(1).text())
                .isEqualTo(
                        "subject "
                                + subject
                                + ": version 1, schema id "
                                + id
                                + " (record com.acme."
                                + record
                                + ", 2 fields)");

        RegistrySpec missing =
                new RegistrySpec(
                        r.url(),
                        r.username(),
                        r.passwordFile(),
                        null,
                        r.timeout(),
                        r.giveUpAfter(),
                        r.unknownIdTtl(),
                        subject("no-such-subject"));
        List<AvroCheck.Finding> bad =
                AvroCheck.check(
                        new AvroSpec(AvroFraming.CONFLUENT, null, missing),
                        Clock.SYSTEM,
                        System::getenv);
        assertThat(bad.get(0).ok()).isTrue();
        assertThat(bad.get(1).ok()).isFalse();
        assertThat(bad.get(1).text()).contains("HTTP 404 40401");
    }

    private static RegistrySchemas schemas(RegistrySpec spec) {
        return new RegistrySchemas(
                new RegistryClient(spec, Clock.SYSTEM, System::getenv),
                Clock.SYSTEM,
                spec.unknownIdTtl());
    }
}
