package dev.sluice.pipeline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sink's tables by topic ({@code table} templates, {@code tables}), {@code
 * schema_check_interval}, and the one builder of {@link SinkSpec}.
 */
class SinkTablesConfigTest {
    private static final String KAFKA =
            "source:\n  kafka: {bootstrap_servers: 'k:9092', topics: [a, b], group_id: g}\n"
                    + "decode: json\n";

    private static PipelineSpec parse(String yaml) {
        return new ConfigLoader(name -> null, 4).parse(yaml, "p.yaml");
    }

    private static String sink(String lines) {
        return "sink:\n  clickhouse:\n    url: clickhouse://localhost:9000/db\n" + lines;
    }

    @Test
    void theColumnsAreLookedAtEveryThirtySecondsUnlessConfigured() {
        String generator = "source: {generator: {}}\n";
        assertThat(parse(generator + sink("    table: t\n")).sink().schemaCheckInterval())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(
                        parse(generator + sink("    table: t\n    schema_check_interval: 5s\n"))
                                .sink()
                                .schemaCheckInterval())
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(
                        parse(generator + sink("    table: t\n    schema_check_interval: 0\n"))
                                .sink()
                                .schemaCheckInterval())
                .isZero();
        assertThatThrownBy(
                        () ->
                                parse(
                                        generator
                                                + sink(
                                                        "    table: t\n"
                                                                + "    schema_check_interval:"
                                                                + " often\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sink.clickhouse.schema_check_interval");
    }

    @Test
    void aKafkaSinkNamesItsTablesByTopicAndByMap() {
        SinkSpec s =
                parse(
                                KAFKA
                                        + sink(
                                                "    table: \"db.events_{topic}\"\n"
                                                        + "    tables: {b: shop.b_orders}\n"))
                        .sink();
        assertThat(s.table()).isEqualTo("db.events_{topic}");
        assertThat(s.tables()).isEqualTo(Map.of("b", "shop.b_orders"));
        assertThat(s.route().table("a")).isEqualTo("db.events_a");
        assertThat(s.route().table("b")).isEqualTo("shop.b_orders");
        SinkSpec mapOnly =
                parse(KAFKA + sink("    tables: {a: db.a_table, b: db.b_table}\n")).sink();
        assertThat(mapOnly.table()).isNull();
        assertThat(mapOnly.route().knownTables()).containsExactly("db.a_table", "db.b_table");
    }

    @Test
    void tablesByTopicNeedASourceWithTopicsAndAWellFormedTemplate() {
        assertThatThrownBy(
                        () ->
                                parse(
                                        "source: {generator: {}}\n"
                                                + sink("    table: \"db.events_{topic}\"\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("p.yaml:5:12: sink.clickhouse.table")
                .hasMessageContaining(
                        "tables chosen by topic need a source whose records have topics (kafka)");
        assertThatThrownBy(
                        () ->
                                parse(
                                        "source: {generator: {}}\n"
                                                + sink("    table: t\n    tables: {a: db.a}\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sink.clickhouse.tables: tables chosen by topic need");
        assertThatThrownBy(() -> parse(KAFKA + sink("    table: \"db.e_{partition}\"\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sink.clickhouse.table")
                .hasMessageContaining("unknown placeholder {partition}");
        assertThatThrownBy(() -> parse(KAFKA + sink("    batch: {}\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sink.clickhouse.table");
    }

    @Test
    void oneBuilderMakesEverySinkWithTheConfigurationsDefaults() {
        SinkSpec parsed = parse("source: {generator: {}}\n" + sink("    table: t\n")).sink();
        SinkSpec built =
                SinkSpec.builder(
                                List.of(
                                        new ShardSpec(
                                                List.of("clickhouse://localhost:9000/db"), 1)),
                                "t")
                        .build();
        assertThat(built).isEqualTo(parsed);
        assertThat(built.toBuilder().build()).isEqualTo(built);
        SinkSpec changed =
                built.toBuilder()
                        .batch(new BatchSpec(10, 1 << 20, Duration.ZERO))
                        .presort(true)
                        .shardBy("intHash32(id)")
                        .schemaCheckInterval(Duration.ZERO)
                        .tables(Map.of("x", "db.x"))
                        .build();
        assertThat(changed.batch()).isEqualTo(new BatchSpec(10, 1 << 20, Duration.ZERO));
        assertThat(changed.presort()).isEqualTo(PresortMode.ON);
        assertThat(changed.shardBy()).isEqualTo("intHash32(id)");
        assertThat(changed.schemaCheckInterval()).isZero();
        assertThat(changed.tables()).isEqualTo(Map.of("x", "db.x"));
        assertThat(changed.retry()).isEqualTo(built.retry());
        List<ShardSpec> two =
                List.of(
                        new ShardSpec(List.of("clickhouse://a/db"), 1),
                        new ShardSpec(List.of("clickhouse://b/db"), 2));
        assertThat(changed.withShards(two))
                .isEqualTo(changed.toBuilder().shards(two).build())
                .extracting(SinkSpec::shards)
                .isEqualTo(two);
        assertThatThrownBy(
                        () -> built.toBuilder().schemaCheckInterval(Duration.ofSeconds(-1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema_check_interval must not be negative");
    }
}
