package dev.sluice.pipeline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.AdminSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BackpressureSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.CheckpointSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ErrorsSpec;
import dev.sluice.pipeline.spec.PipelineSpec.FileSource;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.PipelineSpec.StdinSource;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
    private static final String SINK =
            "sink:\n  clickhouse:\n    url: clickhouse://localhost:9000/db\n    table: t\n";

    private final Map<String, String> env = new HashMap<>();

    private PipelineSpec parse(String yaml) {
        return new ConfigLoader(env::get, 8).parse(yaml, "p.yaml");
    }

    private AbstractThrowableAssert<?, ? extends Throwable> fails(String yaml) {
        return assertThatThrownBy(() -> parse(yaml)).isInstanceOf(ConfigException.class);
    }

    @Test
    void aMinimalConfigGetsEveryDefault() {
        PipelineSpec spec = parse("source:\n  generator: {}\n" + SINK);
        assertThat(spec.name()).isEqualTo("sluice");
        assertThat(spec.threads()).isEqualTo(4);
        assertThat(spec.source()).isEqualTo(new GeneratorSource(0, 0, 42, 2048));
        assertThat(spec.decode().format()).isEqualTo(Format.GENERATOR);
        assertThat(spec.transforms()).isEmpty();
        assertThat(spec.sink().shards())
                .containsExactly(new ShardSpec(List.of("clickhouse://localhost:9000/db"), 1));
        assertThat(spec.sink().table()).isEqualTo("t");
        assertThat(spec.sink().batch())
                .isEqualTo(new BatchSpec(500_000, 64L << 20, Duration.ofSeconds(1)));
        assertThat(spec.sink().inflightPerShard()).isEqualTo(2);
        assertThat(spec.sink().compression()).isEqualTo("lz4");
        assertThat(spec.sink().presort()).isEqualTo(PresortMode.OFF);
        assertThat(spec.sink().partitionSplit()).isFalse();
        assertThat(spec.sink().settings()).isEmpty();
        assertThat(spec.sink().retry())
                .isEqualTo(
                        new RetrySpec(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.2, 0));
        // Left to the table: resend where it deduplicates, fail where it cannot.
        assertThat(spec.sink().onUnknownOutcome()).isNull();
        assertThat(spec.sink().outcomeTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(spec.errors())
                .isEqualTo(
                        new ErrorsSpec(
                                ErrorPolicy.FAIL,
                                Path.of(".sluice/dead-letter/sluice.ndjson"),
                                -1));
        assertThat(spec.backpressure()).isEqualTo(new BackpressureSpec(0, 0.8, 0.5));
        assertThat(spec.checkpoint())
                .isEqualTo(
                        new CheckpointSpec(Duration.ofSeconds(1), Path.of(".sluice/state/sluice")));
        assertThat(spec.admin()).isEqualTo(new AdminSpec("127.0.0.1:9464"));
    }

    @Test
    void everySectionSpelledOut() {
        PipelineSpec spec =
                parse(
                        """
                pipeline: {name: orders, threads: 3}
                source:
                  file:
                    paths: [a/*.csv, b.csv.gz]
                    follow: true
                    max_record_bytes: 1MiB
                    poll_interval: 250ms
                decode:
                  csv: {header: true, delimiter: ";", ignore_unknown: true}
                transforms:
                  - rename: {from: a, to: b}
                  - filter: {expr: "x > 1", keep: true, ratio: 0.5, columns: [a, b], nested: {n: 1}}
                  - drop:
                sink:
                  clickhouse:
                    shards:
                      - replicas: [clickhouse://a:9000/db, clickhouse://b:9000/db]
                        weight: 3
                      - replicas: https://c:8443/db
                    table: db.orders
                    batch: {max_rows: 1000, max_bytes: 1GB, linger: 1m30s}
                    inflight_per_shard: 4
                    compression: ZSTD:5
                    presort: true
                    partition_split: true
                    settings: {async_insert: 1, insert_quorum: auto}
                    retry: {initial: 1s, max: 1m, multiplier: 1.5, jitter: 0, max_attempts: 7}
                errors:
                  policy: dead-letter
                  dead_letter: {path: /tmp/dlq.ndjson}
                  max_errors: 100
                backpressure: {max_inflight_bytes: 2GiB, high: 0.9, low: 0.3}
                checkpoint: {interval: 10s, dir: /var/lib/sluice}
                admin: {listen: "0.0.0.0:9100"}
                """);
        assertThat(spec.name()).isEqualTo("orders");
        assertThat(spec.threads()).isEqualTo(3);
        assertThat(spec.source())
                .isEqualTo(
                        new FileSource(
                                List.of("a/*.csv", "b.csv.gz"),
                                true,
                                1 << 20,
                                Duration.ofMillis(250)));
        assertThat(spec.decode())
                .isEqualTo(new DecodeSpec(Format.CSV, List.of(), true, Map.of(), true, ';'));
        assertThat(spec.transforms())
                .containsExactly(
                        new TransformSpec("rename", Map.of("from", "a", "to", "b")),
                        new TransformSpec(
                                "filter",
                                Map.of(
                                        "expr",
                                        "x > 1",
                                        "keep",
                                        true,
                                        "ratio",
                                        0.5,
                                        "columns",
                                        List.of("a", "b"),
                                        "nested",
                                        Map.of("n", 1L))),
                        new TransformSpec("drop", Map.of()));
        assertThat(spec.transforms().get(1).options().keySet())
                .containsExactly("expr", "keep", "ratio", "columns", "nested");
        assertThat(spec.sink().shards())
                .containsExactly(
                        new ShardSpec(
                                List.of("clickhouse://a:9000/db", "clickhouse://b:9000/db"), 3),
                        new ShardSpec(List.of("https://c:8443/db"), 1));
        assertThat(spec.sink().table()).isEqualTo("db.orders");
        assertThat(spec.sink().batch())
                .isEqualTo(new BatchSpec(1000, 1_000_000_000L, Duration.ofSeconds(90)));
        assertThat(spec.sink().inflightPerShard()).isEqualTo(4);
        assertThat(spec.sink().compression()).isEqualTo("zstd:5");
        assertThat(spec.sink().presort()).isEqualTo(PresortMode.ON);
        assertThat(spec.sink().partitionSplit()).isTrue();
        assertThat(spec.sink().settings())
                .isEqualTo(Map.of("async_insert", "1", "insert_quorum", "auto"));
        assertThat(spec.sink().retry())
                .isEqualTo(
                        new RetrySpec(Duration.ofSeconds(1), Duration.ofMinutes(1), 1.5, 0.0, 7));
        assertThat(spec.errors())
                .isEqualTo(
                        new ErrorsSpec(ErrorPolicy.DEAD_LETTER, Path.of("/tmp/dlq.ndjson"), 100));
        assertThat(spec.backpressure()).isEqualTo(new BackpressureSpec(2L << 30, 0.9, 0.3));
        assertThat(spec.checkpoint())
                .isEqualTo(new CheckpointSpec(Duration.ofSeconds(10), Path.of("/var/lib/sluice")));
        assertThat(spec.admin()).isEqualTo(new AdminSpec("0.0.0.0:9100"));
    }

    @Test
    void generatorAndStdinSources() {
        assertThat(
                        parse(
                                        "source:\n  generator: {rows: 1_000_000, rows_per_second: 5000, seed: -3, payload_arena: 16}\n"
                                                + SINK)
                                .source())
                .isEqualTo(new GeneratorSource(1_000_000, 5000, -3, 16));
        PipelineSpec stdin = parse("source:\n  stdin:\ndecode: tsv\n" + SINK);
        assertThat(stdin.source()).isEqualTo(new StdinSource(8 << 20));
        assertThat(stdin.decode())
                .isEqualTo(new DecodeSpec(Format.TSV, List.of(), false, Map.of(), false, '\t'));
        assertThat(
                        parse(
                                        "source:\n  stdin: {max_record_bytes: 4k}\ndecode: {json: {fields: {a: /x/y}}}\n"
                                                + SINK)
                                .decode())
                .isEqualTo(
                        new DecodeSpec(
                                Format.JSON, List.of(), false, Map.of("a", "/x/y"), false, ','));
    }

    @Test
    void theJsonFastPathIsOnUnlessTurnedOff() {
        String source = "source:\n  stdin:\n";
        assertThat(parse(source + "decode: json\n" + SINK).decode().jsonFastPath()).isTrue();
        assertThat(
                        parse(source + "decode: {json: {ignore_unknown: true}}\n" + SINK)
                                .decode()
                                .jsonFastPath())
                .isTrue();
        assertThat(
                        parse(source + "decode: {json: {fast_path: false}}\n" + SINK)
                                .decode()
                                .jsonFastPath())
                .isFalse();
    }

    @Test
    void decodeFollowsTheFileExtensionsWhenLeftOut() {
        assertThat(parse("source: {file: {paths: logs/*.ndjson.gz}}\n" + SINK).decode().format())
                .isEqualTo(Format.JSON);
        assertThat(
                        parse("source: {file: {paths: [a.tsv, b.tab.zst]}}\ndecode: auto\n" + SINK)
                                .decode()
                                .format())
                .isEqualTo(Format.TSV);
        assertThat(
                        parse(
                                        "source: {file: {paths: [\"-\"]}}\ndecode: {csv: {columns: [a, b]}}\n"
                                                + SINK)
                                .decode()
                                .columns())
                .containsExactly("a", "b");
        fails("source: {file: {paths: [a.csv, b.tsv]}}\n" + SINK)
                .hasMessageStartingWith("p.yaml:1:9: decode: the inputs mix formats");
        fails("source: {file: {paths: data/}}\n" + SINK)
                .hasMessageContaining("cannot tell the input format");
        fails("source: {stdin: {}}\n" + SINK).hasMessageContaining("name it");
    }

    @Test
    void interpolationAppliesToEveryValueBeforeItsType() {
        env.put("CH", "clickhouse://ch:9000/x");
        env.put("THREADS", "6");
        PipelineSpec spec =
                parse(
                        """
                pipeline: {threads: "${THREADS}"}
                source: {generator: {rows: "${ROWS:-7}"}}
                sink: {clickhouse: {url: "${CH}", table: "${TABLE:-events}", batch: {max_bytes: "${MB:-2}MiB"}}}
                """);
        assertThat(spec.threads()).isEqualTo(6);
        assertThat(((GeneratorSource) spec.source()).rows()).isEqualTo(7);
        assertThat(spec.sink().shards().get(0).replicas())
                .containsExactly("clickhouse://ch:9000/x");
        assertThat(spec.sink().table()).isEqualTo("events");
        assertThat(spec.sink().batch().maxBytes()).isEqualTo(2L << 20);
    }

    @Test
    void anUnsetVariableIsAnErrorNamingItAndTheKey() {
        fails(
                        "source: {generator: {}}\nsink: {clickhouse: {url: \"${CLICKHOUSE_URL}\", table: t}}\n")
                .hasMessage(
                        "p.yaml:2:26: sink.clickhouse.url: environment variable CLICKHOUSE_URL is not set"
                                + " (give a default with ${CLICKHOUSE_URL:-value})");
    }

    @Test
    void unknownKeysAtEveryDepthNameTheirPathAndTheNearestKey() {
        fails("source: {generator: {}}\nsinks: {}\n")
                .hasMessage("p.yaml:2:1: sinks: unknown key (did you mean sink?)");
        fails("source: {generator: {}}\n" + SINK + "    batch:\n      max_row: 5\n")
                .hasMessage(
                        "p.yaml:7:7: sink.clickhouse.batch.max_row: unknown key (did you mean max_rows?)");
        fails("source: {file: {pathz: [a.csv]}}\n" + SINK)
                .hasMessageContaining("source.file.pathz: unknown key (did you mean paths?)");
        fails(
                        "source: {generator: {}}\nsink: {clickhouse: {table: t, shards: [{replicas: [clickhouse://a/db]}, {replica: x}]}}\n")
                .hasMessageContaining(
                        "sink.clickhouse.shards[1].replica: unknown key (did you mean replicas?)");
        fails("source: {generator: {}}\n" + SINK + "errors: {dead_letter: {file: x}}\n")
                .hasMessageContaining("errors.dead_letter.file: unknown key (expected path)");
        fails("source: {generator: {}}\ntransforms: [{renam: {}}]\n" + SINK)
                .hasMessageContaining("transforms[0].renam: unknown key (did you mean rename?)");
        fails("source: {kafk: {}}\n" + SINK)
                .hasMessageContaining("source.kafk: unknown key (did you mean kafka?)");
        fails("source: {kafka: {}}\n" + SINK)
                .hasMessageContaining("source.kafka.bootstrap_servers: required");
        fails("source: {kafka: {bootstrap_servers: h, topics: [t], startt: x}}\n" + SINK)
                .hasMessageContaining("source.kafka.startt: unknown key (did you mean start?)");
        fails("source: {kafka: {bootstrap_servers: h, topics: [t], topic_pattern: x}}\n" + SINK)
                .hasMessageContaining("give either topics or topic_pattern");
        fails(
                        "source: {file: {paths: a.csv}}\ndecode: {csv: {header: true, delimitter: x}}\n"
                                + SINK)
                .hasMessageContaining(
                        "decode.csv.delimitter: unknown key (did you mean delimiter?)");
        fails("source: {file: {paths: a.tsv}}\ndecode: {tsv: {delimiter: x}}\n" + SINK)
                .hasMessageContaining("decode.tsv.delimiter: unknown key");
    }

    @Test
    void presortIsOffOnOrAutoAndTrueAndFalseStillMeanOnAndOff() {
        String[][] cases = {
            {"off", "OFF"},
            {"on", "ON"},
            {"auto", "AUTO"},
            {"AUTO", "AUTO"},
            {"true", "ON"},
            {"false", "OFF"}
        };
        for (String[] c : cases) {
            PipelineSpec spec =
                    parse("source: {generator: {}}\n" + SINK + "    presort: " + c[0] + "\n");
            assertThat(spec.sink().presort()).as(c[0]).isEqualTo(PresortMode.valueOf(c[1]));
        }
        fails("source: {generator: {}}\n" + SINK + "    presort: sometimes\n")
                .hasMessage(
                        "p.yaml:6:14: sink.clickhouse.presort: expected off, on or auto (or true,"
                                + " false), got 'sometimes'");
    }

    @Test
    void wrongTypesSayWhatWasExpected() {
        fails("pipeline: {threads: many}\nsource: {generator: {}}\n" + SINK)
                .hasMessage("p.yaml:1:21: pipeline.threads: expected an integer, got 'many'");
        fails("pipeline: {threads: 0}\nsource: {generator: {}}\n" + SINK)
                .hasMessageContaining("pipeline.threads: must be between 1 and 1024, got 0");
        fails("source: {file: {paths: a.csv, follow: yes}}\n" + SINK)
                .hasMessageContaining("source.file.follow: expected true or false, got 'yes'");
        fails("source: {file: {paths: {a: 1}}}\n" + SINK)
                .hasMessageContaining("source.file.paths: expected a value, got a mapping");
        fails("source: {generator: {}}\n" + SINK + "    batch: [1]\n")
                .hasMessageContaining(
                        "sink.clickhouse.batch: expected a mapping (key: value), got a list");
        fails("source: {generator: {}}\ntransforms: {rename: {}}\n" + SINK)
                .hasMessageContaining("transforms: expected a list, got a mapping");
        fails("source: {generator: {}}\ntransforms: [{filter: x > 1}]\n" + SINK)
                .hasMessageContaining(
                        "transforms[0].filter: expected the transform's options as a mapping");
        fails("source: {generator: {}}\n" + SINK + "backpressure: {high: lots}\n")
                .hasMessageContaining("backpressure.high: expected a number, got 'lots'");
        fails("source: {generator: {}}\n" + SINK + "    settings: {a: [1]}\n")
                .hasMessageContaining("sink.clickhouse.settings.a: expected a value, got a list");
    }

    @Test
    void badSizesAndDurations() {
        fails("source: {generator: {}}\n" + SINK + "    batch: {max_bytes: 64XB}\n")
                .hasMessageContaining("sink.clickhouse.batch.max_bytes: unknown size unit 'XB'");
        fails("source: {generator: {}}\n" + SINK + "    batch: {linger: 10}\n")
                .hasMessageContaining(
                        "sink.clickhouse.batch.linger: expected a duration such as 500ms");
        fails("source: {generator: {}}\ncheckpoint: {interval: 0}\n" + SINK)
                .hasMessageContaining("checkpoint.interval: must be at least 1ms");
        fails("source: {file: {paths: a.csv, max_record_bytes: 2GiB}}\n" + SINK)
                .hasMessageContaining(
                        "source.file.max_record_bytes: must be between 1 and 1073741824");
    }

    @Test
    void sinkShapes() {
        fails("source: {generator: {}}\nsink: {clickhouse: {table: t}}\n")
                .hasMessageContaining("needs url");
        fails(
                        "source: {generator: {}}\nsink: {clickhouse: {table: t, url: clickhouse://a/db, shards: []}}\n")
                .hasMessageContaining("both url and shards");
        fails("source: {generator: {}}\nsink: {clickhouse: {table: t, shards: []}}\n")
                .hasMessageContaining("sink.clickhouse.shards: needs at least one shard");
        fails("source: {generator: {}}\nsink: {clickhouse: {url: mysql://a/db, table: t}}\n")
                .hasMessageContaining("sink.clickhouse.url: expected a clickhouse://");
        fails(
                        "source: {generator: {}}\nsink: {clickhouse: {url: \"tcp//u:secret@h/db\", table: t}}\n")
                .hasMessageContaining("'tcp//u:***@h/db'")
                .message()
                .doesNotContain("secret");
        fails(
                        "source: {generator: {}}\nsink: {clickhouse: {url: \"ftp://h/db?password=pw&x=1\", table: t}}\n")
                .hasMessageContaining("password=***&x=1");
        fails(
                        "source: {generator: {}}\nsink: {clickhouse: {url: \"http://u:s3cret@/db\", table: t}}\n")
                .hasMessageContaining("no host")
                .message()
                .doesNotContain("s3cret");
        fails("source: {generator: {}}\nsink: {clickhouse: {url: clickhouse://a/db}}\n")
                .hasMessageContaining("sink.clickhouse.table: required");
        fails("source: {generator: {}}\n" + SINK + "    compression: brotli\n")
                .hasMessageContaining("expected lz4, zstd, zstd:LEVEL (1-22) or none");
        fails("source: {generator: {}}\n" + SINK + "    compression: zstd:40\n")
                .hasMessageContaining("between 1 and 22");
        fails("source: {generator: {}}\n" + SINK + "    retry: {initial: 20s}\n")
                .hasMessageContaining(
                        "sink.clickhouse.retry.initial: retry.max (10000ms) is less than retry.initial");
        fails(
                        "source: {generator: {}}\n"
                                + SINK
                                + "    shards: [{replicas: [clickhouse://x/db]}]\n")
                .hasMessageContaining("both url and shards");
        assertThat(
                        parse("source: {generator: {}}\n" + SINK + "    compression: off\n")
                                .sink()
                                .compression())
                .isEqualTo("none");
    }

    @Test
    void whatToDoWithAnUnknownOutcomeAndHowLongToLookItUp() {
        SinkSpec sink =
                parse(
                                "source: {generator: {}}\n"
                                        + SINK
                                        + "    on_unknown_outcome: Resend\n"
                                        + "    outcome_timeout: 90s\n")
                        .sink();
        assertThat(sink.onUnknownOutcome()).isEqualTo(OnUnknownOutcome.RESEND);
        assertThat(sink.outcomeTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(
                        parse("source: {generator: {}}\n" + SINK + "    on_unknown_outcome: fail\n")
                                .sink()
                                .onUnknownOutcome())
                .isEqualTo(OnUnknownOutcome.FAIL);
        fails("source: {generator: {}}\n" + SINK + "    on_unknown_outcome: retry\n")
                .hasMessageContaining(
                        "p.yaml:6:25: sink.clickhouse.on_unknown_outcome: expected resend or fail,"
                                + " got 'retry'");
        fails("source: {generator: {}}\n" + SINK + "    outcome_timeout: soon\n")
                .hasMessageContaining("sink.clickhouse.outcome_timeout");
        fails("source: {generator: {}}\n" + SINK + "    on_unknown_outcomes: fail\n")
                .hasMessageContaining("did you mean on_unknown_outcome?");
    }

    @Test
    void giveUpAfterEndsEndlessRetriesAndZeroMeansNever() {
        assertThat(parse("source: {generator: {}}\n" + SINK).sink().retry().giveUpAfter())
                .isEqualTo(Duration.ofMinutes(10));
        assertThat(
                        parse(
                                        "source: {generator: {}}\n"
                                                + SINK
                                                + "    retry: {give_up_after: 1h30m}\n")
                                .sink()
                                .retry())
                .isEqualTo(
                        new RetrySpec(
                                Duration.ofMillis(100),
                                Duration.ofSeconds(10),
                                2.0,
                                0.2,
                                0,
                                Duration.ofMinutes(90)));
        assertThat(
                        parse(
                                        "source: {generator: {}}\n"
                                                + SINK
                                                + "    retry: {give_up_after: 0}\n")
                                .sink()
                                .retry()
                                .giveUpAfter())
                .isZero();
        fails("source: {generator: {}}\n" + SINK + "    retry: {give_up_after: -5m}\n")
                .hasMessageContaining(
                        "p.yaml:6:28: sink.clickhouse.retry.give_up_after: expected a duration");
        fails("source: {generator: {}}\n" + SINK + "    retry: {give_up_after: later}\n")
                .hasMessageContaining("sink.clickhouse.retry.give_up_after");
        fails("source: {generator: {}}\n" + SINK + "    retry: {give_up_afterr: 5m}\n")
                .hasMessageContaining("did you mean give_up_after?");
    }

    @Test
    void otherSections() {
        assertThat(
                        parse("source: {generator: {}}\n" + SINK + "admin: {listen: off}\n")
                                .admin()
                                .listen())
                .isNull();
        fails("source: {generator: {}}\n" + SINK + "admin: {listen: localhost}\n")
                .hasMessageContaining("admin.listen: expected host:port");
        fails("source: {generator: {}}\n" + SINK + "errors: {policy: ignore}\n")
                .hasMessageContaining("errors.policy: unknown error policy 'ignore'");
        assertThat(
                        parse(
                                        "source: {generator: {}}\n"
                                                + SINK
                                                + "errors: {policy: skip, max_errors: 5}\n")
                                .errors())
                .isEqualTo(
                        new ErrorsSpec(
                                ErrorPolicy.SKIP, Path.of(".sluice/dead-letter/sluice.ndjson"), 5));
        fails("source: {generator: {}}\n" + SINK + "backpressure: {high: 0.5, low: 0.6}\n")
                .hasMessageContaining("backpressure.low: needs 0 < low < high");
        fails("pipeline: {name: my pipeline}\nsource: {generator: {}}\n" + SINK)
                .hasMessageContaining("pipeline.name: must be letters, digits");
        PipelineSpec named = parse("pipeline: {name: nightly}\nsource: {generator: {}}\n" + SINK);
        assertThat(named.checkpoint().dir()).isEqualTo(Path.of(".sluice/state/nightly"));
        assertThat(named.errors().deadLetterPath())
                .isEqualTo(Path.of(".sluice/dead-letter/nightly.ndjson"));
        assertThat(
                        parse(
                                        "source: {generator: {}}\n"
                                                + SINK
                                                + "backpressure: {max_inflight_bytes: 512k}\n")
                                .backpressure()
                                .maxInflightBytes())
                .isEqualTo(512L << 10);
    }

    @Test
    void sourceAndDecodeMustFit() {
        fails("source: {generator: {}}\ndecode: json\n" + SINK)
                .hasMessageContaining("decode: the generator source makes its own rows");
        fails("source: {file: {paths: a.csv}}\ndecode: generator\n" + SINK)
                .hasMessageContaining("the generator format needs the generator source");
        fails("source: {generator: {}, file: {paths: a.csv}}\n" + SINK)
                .hasMessageContaining("source: expected only one of generator, file, stdin");
        fails("source: {}\n" + SINK)
                .hasMessageContaining("source: expected one of generator, file, stdin");
        fails("source: {file: {paths: [a.csv, \"-\"]}}\n" + SINK)
                .hasMessageContaining("cannot be mixed");
        fails("source: {file: {paths: []}}\n" + SINK)
                .hasMessageContaining("source.file.paths: needs at least one path");
        fails(
                        "source: {file: {paths: a.csv}}\ndecode: {csv: {header: true, columns: [a]}}\n"
                                + SINK)
                .hasMessageContaining(
                        "decode.csv.columns: columns name the fields of headerless input");
        fails("source: {file: {paths: a.csv}}\ndecode: {csv: {delimiter: \"ab\"}}\n" + SINK)
                .hasMessageContaining("decode.csv.delimiter: must be one ASCII character");
        fails("source: {file: {paths: a.csv}}\ndecode: xml\n" + SINK)
                .hasMessageContaining("unknown format 'xml'");
    }

    @Test
    void documentLevelMistakes() {
        fails("").hasMessage("p.yaml: the configuration is empty");
        fails("source: {generator: {}\n").hasMessageStartingWith("p.yaml:2:1: not valid YAML");
        fails("source: {generator: {}}\nsource: {generator: {}}\n" + SINK)
                .hasMessage("p.yaml:2:1: source: duplicate key");
        fails("- a\n- b\n").hasMessageContaining("expected a mapping");
        fails(SINK).hasMessage("p.yaml:1:1: source: required");
    }
}
