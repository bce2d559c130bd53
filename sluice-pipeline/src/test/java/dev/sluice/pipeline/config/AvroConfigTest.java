package dev.sluice.pipeline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;

/** {@code decode: {avro: ...}}: its keys, defaults and mistakes. */
class AvroConfigTest {
    private static final String SINK =
            "sink:\n  clickhouse:\n    url: clickhouse://localhost:9000/db\n    table: t\n";

    /** The avro options of {@code decode: {avro: <yaml>}}, parsed. */
    private static DecodeSpec avro(String yaml) {
        var node =
                new Compose(LoadSettings.builder().build())
                        .composeString("avro: " + yaml)
                        .orElseThrow();
        ConfigNode decode =
                new ConfigNode(
                        "decode",
                        node,
                        new ConfigNode.Context("p.yaml", Map.<String, String>of()::get));
        return SourceSection.avro(decode.map().map("avro"));
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> fails(String yaml) {
        return assertThatThrownBy(() -> avro(yaml)).isInstanceOf(ConfigException.class);
    }

    @Test
    void confluentWithARegistryGetsEveryDefault() {
        DecodeSpec d = avro("{registry: {url: 'http://127.0.0.1:8081'}}");
        assertThat(d.format()).isEqualTo(Format.AVRO);
        assertThat(d.ignoreUnknown()).isFalse();
        assertThat(d.avro().framing()).isEqualTo(AvroFraming.CONFLUENT);
        assertThat(d.avro().registry())
                .isEqualTo(
                        new RegistrySpec(
                                "http://127.0.0.1:8081",
                                null,
                                null,
                                null,
                                Duration.ofSeconds(10),
                                Duration.ofSeconds(30),
                                Duration.ofMinutes(1),
                                null));
    }

    @Test
    void everyKeySpelledOut() {
        DecodeSpec d =
                avro(
                        """
                        {framing: confluent, ignore_unknown: true, registry: {
                          url: 'https://sr.example:8443/apis/ccompat/v7', username: svc,
                          password_file: /run/secrets/sr, timeout: 2s, give_up_after: 5m,
                          unknown_id_ttl: 0, subject: events-value}}""");
        assertThat(d.ignoreUnknown()).isTrue();
        assertThat(d.avro().registry())
                .isEqualTo(
                        new RegistrySpec(
                                "https://sr.example:8443/apis/ccompat/v7",
                                "svc",
                                Path.of("/run/secrets/sr"),
                                null,
                                Duration.ofSeconds(2),
                                Duration.ofMinutes(5),
                                Duration.ZERO,
                                "events-value"));
        assertThat(
                        avro("{registry: {url: 'http://h:1', username: u, password_env: SR_PW}}")
                                .avro()
                                .registry()
                                .passwordEnv())
                .isEqualTo("SR_PW");
    }

    @Test
    void rawWithASchemaFile() {
        DecodeSpec d = avro("{schema_file: schemas/event.avsc}");
        assertThat(d.avro().framing()).isEqualTo(AvroFraming.RAW);
        assertThat(d.avro().schemaFile()).isEqualTo(Path.of("schemas/event.avsc"));
        assertThat(d.avro().registry()).isNull();
        assertThat(avro("{framing: raw, schema_file: e.avsc}").avro().framing())
                .isEqualTo(AvroFraming.RAW);
    }

    @Test
    void mistakes() {
        fails("{registry: {url: 'http://h:1', pasword_file: x}}")
                .hasMessageContaining(
                        "decode.avro.registry.pasword_file: unknown key (did you mean password_file?)");
        fails("{schema: x}").hasMessageContaining("decode.avro.schema: unknown key");
        fails("{framing: magic, schema_file: x}")
                .hasMessageContaining(
                        "decode.avro.framing: expected confluent or raw, got 'magic'");
        fails("{framing: raw}").hasMessageContaining("schema_file names their writer schema");
        fails("{framing: raw, schema_file: x, registry: {url: 'http://h:1'}}")
                .hasMessageContaining("decode.avro.registry: raw Avro records carry no schema id");
        fails("{framing: confluent}").hasMessageContaining("Confluent-framed Avro needs registry");
        fails("{schema_file: x, registry: {url: 'http://h:1'}}")
                .hasMessageContaining(
                        "decode.avro.schema_file: give schema_file (raw records) or registry");
        fails("{framing: confluent, schema_file: x, registry: {url: 'http://h:1'}}")
                .hasMessageContaining(
                        "decode.avro.schema_file: Confluent-framed records name their schema by id");
        fails("{registry: {}}").hasMessageContaining("decode.avro.registry.url: required");
        fails("{registry: {url: 'h:8081'}}")
                .hasMessageContaining("expected an http:// or https:// URL");
        fails("{registry: {url: 'http://u:secret@h:1'}}")
                .hasMessageContaining("not in the URL")
                .hasMessageNotContaining("secret");
        fails("{registry: {url: 'http://h:1', password_file: x}}")
                .hasMessageContaining(
                        "decode.avro.registry.password_file: a password needs a username");
        fails("{registry: {url: 'http://h:1', username: u, password_file: x, password_env: Y}}")
                .hasMessageContaining("give password_file or password_env, not both");
        fails("{registry: {url: 'http://h:1', timeout: 0}}")
                .hasMessageContaining("decode.avro.registry.timeout: must be at least 1ms");
    }

    @Test
    void avroNeedsAMessageSource() {
        assertThatThrownBy(
                        () ->
                                new ConfigLoader(Map.<String, String>of()::get, 2)
                                        .parse(
                                                "source: {file: {paths: a.avro}}\n"
                                                        + "decode: {avro: {schema_file: e.avsc}}\n"
                                                        + SINK,
                                                "p.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "avro records need a source that delivers whole messages (kafka)");
        assertThatThrownBy(
                        () ->
                                new ConfigLoader(Map.<String, String>of()::get, 2)
                                        .parse(
                                                "source: {stdin: {}}\ndecode: avro\n" + SINK,
                                                "p.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("avro needs its options");
    }
}
