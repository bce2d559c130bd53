package dev.sluice.pipeline.spec;

import dev.sluice.pipeline.errors.ErrorPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A whole pipeline, as parsed from YAML ({@code sluice run}) or built from flags ({@code sluice
 * load}). Plain values only; the runtime builds the parts from it. Every field has its default
 * applied by the parser, except {@link BackpressureSpec#maxInflightBytes()}, which the runtime
 * derives from the sizing rule when it is 0.
 */
public record PipelineSpec(
        String name,
        int threads,
        SourceSpec source,
        DecodeSpec decode,
        List<TransformSpec> transforms,
        SinkSpec sink,
        ErrorsSpec errors,
        BackpressureSpec backpressure,
        CheckpointSpec checkpoint,
        AdminSpec admin) {

    public PipelineSpec {
        Objects.requireNonNull(name, "name");
        if (threads < 1) {
            throw new IllegalArgumentException("pipeline.threads must be at least 1");
        }
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(decode, "decode");
        transforms = List.copyOf(transforms);
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(errors, "errors");
        Objects.requireNonNull(backpressure, "backpressure");
        Objects.requireNonNull(checkpoint, "checkpoint");
        Objects.requireNonNull(admin, "admin");
    }

    /** The same pipeline writing through {@code newSink}. */
    public PipelineSpec withSink(SinkSpec newSink) {
        return new PipelineSpec(
                name,
                threads,
                source,
                decode,
                transforms,
                newSink,
                errors,
                backpressure,
                checkpoint,
                admin);
    }

    /** Where records come from. */
    public sealed interface SourceSpec
            permits GeneratorSource, FileSource, StdinSource, KafkaSource {}

    /**
     * The synthetic events of the benchmarks: {@code ts DateTime, tenant UInt32, kind String, id
     * UInt64, payload String}.
     *
     * @param rows how many (0 = unbounded)
     * @param rowsPerSecond a rate limit (0 = as fast as possible)
     */
    public record GeneratorSource(long rows, long rowsPerSecond, long seed, int payloadArena)
            implements SourceSpec {}

    /**
     * Files, globs or directories; {@code .gz} and {@code .zst} are decompressed on the fly.
     *
     * @param follow keep reading as files grow / appear (for {@code run}); false for {@code load}
     * @param maxRecordBytes a longer record is an error (policy applies), not a memory blow-up
     * @param pollInterval in follow mode, how often files are checked for growth and globs for new
     *     files
     */
    public record FileSource(
            List<String> paths, boolean follow, int maxRecordBytes, Duration pollInterval)
            implements SourceSpec {
        public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

        public FileSource {
            paths = List.copyOf(paths);
            Objects.requireNonNull(pollInterval, "pollInterval");
        }

        public FileSource(List<String> paths, boolean follow, int maxRecordBytes) {
            this(paths, follow, maxRecordBytes, DEFAULT_POLL_INTERVAL);
        }
    }

    public record StdinSource(int maxRecordBytes) implements SourceSpec {}

    /**
     * Kafka topics read by a consumer group: one consumer per pipeline thread, all in {@code
     * groupId}; N processes with one group id share the partitions (built by sluice-kafka).
     *
     * @param topics the topics to read, or empty when {@code topicPattern} is given
     * @param topicPattern a regular expression of topic names, or null
     * @param start where a partition without a committed offset starts: {@code earliest} or {@code
     *     latest}
     * @param assignmentTimeout no assignment at all by then is an error (the group cannot form)
     * @param groupProtocol {@code consumer} (KIP-848) or {@code classic} (cooperative-sticky)
     * @param properties consumer properties passed through (TLS, SASL, fetch sizes); keys that
     *     would break delivery are refused by name when the source is built
     */
    public record KafkaSource(
            String bootstrapServers,
            List<String> topics,
            String topicPattern,
            String groupId,
            String start,
            Duration assignmentTimeout,
            String groupProtocol,
            Map<String, String> properties,
            int maxRecordBytes)
            implements SourceSpec {
        public static final Duration DEFAULT_ASSIGNMENT_TIMEOUT = Duration.ofMinutes(5);

        public KafkaSource {
            topics = List.copyOf(topics);
            properties = Map.copyOf(properties);
            if (topics.isEmpty() == (topicPattern == null)) {
                throw new IllegalArgumentException("kafka: give either topics or topic_pattern");
            }
        }
    }

    /** The input formats. */
    public enum Format {
        JSON,
        CSV,
        TSV,
        /** The generator's own rows, no parsing. */
        GENERATOR,
        /** The whole record, unparsed, into one column. */
        RAW,
        /** One Avro datum per record (docs/formats.md), Confluent-framed or raw. */
        AVRO
    }

    /**
     * How records become rows.
     *
     * @param columns for headerless CSV/TSV: the column each field goes to, in order; empty
     *     otherwise
     * @param header CSV/TSV: the first line of each file names the columns
     * @param fields JSON: column name → JSON pointer or dotted path of its field (columns not
     *     listed map to the top-level key of the same name)
     * @param ignoreUnknown an input field with no column is skipped instead of being an error
     * @param delimiter the CSV field delimiter
     * @param avro Avro's options: present exactly when the format is {@link Format#AVRO}
     * @param jsonFastPath JSON: read records with the byte scanner first, Jackson only for those it
     *     declines (the default); false reads every record with Jackson (docs/formats.md)
     */
    public record DecodeSpec(
            Format format,
            List<String> columns,
            boolean header,
            Map<String, String> fields,
            boolean ignoreUnknown,
            char delimiter,
            AvroSpec avro,
            boolean jsonFastPath) {
        public DecodeSpec {
            columns = List.copyOf(columns);
            fields = Map.copyOf(fields);
            if ((format == Format.AVRO) != (avro != null)) {
                throw new IllegalArgumentException(
                        "Avro options go with the avro format, and only with it");
            }
        }

        /** With the JSON fast path on. */
        public DecodeSpec(
                Format format,
                List<String> columns,
                boolean header,
                Map<String, String> fields,
                boolean ignoreUnknown,
                char delimiter,
                AvroSpec avro) {
            this(format, columns, header, fields, ignoreUnknown, delimiter, avro, true);
        }

        /** This spec with the JSON fast path on or off. */
        public DecodeSpec withJsonFastPath(boolean on) {
            return new DecodeSpec(
                    format, columns, header, fields, ignoreUnknown, delimiter, avro, on);
        }

        /** A format other than Avro. */
        public DecodeSpec(
                Format format,
                List<String> columns,
                boolean header,
                Map<String, String> fields,
                boolean ignoreUnknown,
                char delimiter) {
            this(format, columns, header, fields, ignoreUnknown, delimiter, null);
        }

        /** Avro records. */
        public static DecodeSpec avro(AvroSpec avro, boolean ignoreUnknown) {
            return new DecodeSpec(
                    Format.AVRO, List.of(), false, Map.of(), ignoreUnknown, ',', avro);
        }
    }

    /** How an Avro record carries its writer schema. */
    public enum AvroFraming {
        /**
         * Confluent's wire format: byte 0, a 4-byte big-endian schema id, then the datum; the
         * schema comes from the registry.
         */
        CONFLUENT,
        /** The datum alone, written with the schema in {@link AvroSpec#schemaFile()}. */
        RAW
    }

    /**
     * Avro decoding.
     *
     * @param framing how records carry their writer schema
     * @param schemaFile RAW: the writer schema (JSON), else null
     * @param registry CONFLUENT: the schema registry, else null
     */
    public record AvroSpec(AvroFraming framing, Path schemaFile, RegistrySpec registry) {
        public AvroSpec {
            Objects.requireNonNull(framing, "framing");
            if (framing == AvroFraming.RAW && (schemaFile == null || registry != null)) {
                throw new IllegalArgumentException("raw Avro needs a schema file, not a registry");
            }
            if (framing == AvroFraming.CONFLUENT && (registry == null || schemaFile != null)) {
                throw new IllegalArgumentException(
                        "Confluent-framed Avro needs a registry, not a schema file");
            }
        }
    }

    /**
     * A Confluent-compatible schema registry.
     *
     * @param url the API's base, e.g. {@code http://127.0.0.1:8081} (Apicurio: {@code
     *     .../apis/ccompat/v7})
     * @param username basic authentication's user, or null for none
     * @param passwordFile a file holding the password (its first line), or null
     * @param passwordEnv an environment variable holding the password, or null
     * @param timeout for connecting and for each request
     * @param giveUpAfter how long a registry that does not answer is retried before the pipeline
     *     stops
     * @param unknownIdTtl how long an id the registry does not know is remembered as unknown
     * @param subject a subject whose latest schema {@code sluice check} shows, or null
     */
    public record RegistrySpec(
            String url,
            String username,
            Path passwordFile,
            String passwordEnv,
            Duration timeout,
            Duration giveUpAfter,
            Duration unknownIdTtl,
            String subject) {
        public RegistrySpec {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(giveUpAfter, "giveUpAfter");
            Objects.requireNonNull(unknownIdTtl, "unknownIdTtl");
            if (passwordFile != null && passwordEnv != null) {
                throw new IllegalArgumentException("give password_file or password_env, not both");
            }
        }
    }

    /**
     * One transform: {@code kind} is rename, drop, constant, computed, filter or java; the options
     * are the YAML mapping as given, in its order (validated by the transform's factory). Values
     * are String, Long, Double, Boolean, List or Map, never null.
     */
    public record TransformSpec(String kind, Map<String, Object> options) {
        public TransformSpec {
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        }
    }

    /**
     * Whether batches are pre-sorted by the table's sorting key (docs/presort.md): never, always,
     * or, with {@code auto}, a batch when its writer has another batch waiting behind it.
     */
    public enum PresortMode {
        /** Batches go as they come (the default). */
        OFF,
        /** Every batch is pre-sorted. */
        ON,
        /**
         * A batch is pre-sorted when the shard writer that takes it has another sealed batch
         * waiting in its queue: the server is the slower side then (docs/presort.md, "auto").
         */
        AUTO;

        /** {@code on} for true, {@code off} for false (the switch was a boolean before auto). */
        public static PresortMode of(boolean on) {
            return on ? ON : OFF;
        }

        /**
         * @throws IllegalArgumentException for anything but off, on, auto, true or false
         */
        public static PresortMode parse(String s) {
            return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "off", "false" -> OFF;
                case "on", "true" -> ON;
                case "auto" -> AUTO;
                default ->
                        throw new IllegalArgumentException(
                                "expected off, on or auto (or true, false), got '"
                                        + s.trim()
                                        + "'");
            };
        }

        /** The configuration's spelling. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * What to do with an INSERT whose outcome stays unknown: its connection failed after the data
     * was sent, and the server could not tell whether it wrote it (docs/pipeline.md).
     */
    public enum OnUnknownOutcome {
        /** Send it again; its rows count as possibly written twice. */
        RESEND,
        /** Stop, naming the batch and its query_id, so that a person can check and resume. */
        FAIL;

        /**
         * @throws IllegalArgumentException for anything but resend or fail
         */
        public static OnUnknownOutcome parse(String s) {
            return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "resend" -> RESEND;
                case "fail" -> FAIL;
                default ->
                        throw new IllegalArgumentException(
                                "expected resend or fail, got '" + s.trim() + "'");
            };
        }

        /** The configuration's spelling. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** How long an interrupted INSERT is looked up on its server before it counts as unknown. */
    public static final Duration DEFAULT_OUTCOME_TIMEOUT = Duration.ofMinutes(5);

    /**
     * The ClickHouse sink. Build one with {@link #builder} (or change one with {@link #toBuilder}):
     * the builder is the one place that lists every field.
     *
     * @param shards one or more shards; a record goes to exactly one
     * @param table {@code [db.]table}, or a template naming each record's table from its metadata
     *     ({@code events_{topic}}: {@link TableRoute})
     * @param presort sort batches by the table's sorting key before sending: off, on, or auto (when
     *     the shard's writer has batches waiting)
     * @param partitionSplit split each batch by the table's partition key, one INSERT per partition
     * @param settings extra ClickHouse settings for every INSERT
     * @param onUnknownOutcome for an INSERT whose outcome stays unknown; null: {@code resend} for a
     *     table that deduplicates, {@code fail} for one that cannot
     * @param outcomeTimeout how long an interrupted INSERT is looked up on its server (while it
     *     runs there, or while the server does not answer) before its outcome counts as unknown
     * @param shardBy the sharding key (an expression of the table's columns): each row goes to the
     *     shard a Distributed table with this key would send it to; null: whole batches go to a
     *     shard chosen from their partition and first position
     * @param cluster the name of a cluster in the server's {@code system.clusters}: its shards,
     *     weights and replicas replace {@code shards} at start-up (null: the configured ones)
     * @param schemaCheckInterval how often the writer looks at each table's columns to notice an
     *     {@code ALTER TABLE} while data flows ({@link Duration#ZERO}: only when the server refuses
     *     an INSERT as from an older table)
     * @param tables topic → table, overriding {@code table} for records of those topics
     */
    public record SinkSpec(
            List<ShardSpec> shards,
            String table,
            BatchSpec batch,
            int inflightPerShard,
            String compression,
            PresortMode presort,
            boolean partitionSplit,
            Map<String, String> settings,
            RetrySpec retry,
            OnUnknownOutcome onUnknownOutcome,
            Duration outcomeTimeout,
            String shardBy,
            String cluster,
            Duration schemaCheckInterval,
            Map<String, String> tables) {

        /** A batch is sealed at 500,000 rows, 64 MiB or 1 s after its first row, by default. */
        public static final BatchSpec DEFAULT_BATCH =
                new BatchSpec(500_000, 64L << 20, Duration.ofSeconds(1));

        /** INSERTs at once per shard, by default. */
        public static final int DEFAULT_INFLIGHT_PER_SHARD = 2;

        /** The data's compression, by default. */
        public static final String DEFAULT_COMPRESSION = "lz4";

        /** How often each table's columns are looked at, by default. */
        public static final Duration DEFAULT_SCHEMA_CHECK_INTERVAL = Duration.ofSeconds(30);

        public SinkSpec {
            shards = List.copyOf(shards);
            if (shards.isEmpty()) {
                throw new IllegalArgumentException("sink.clickhouse needs a url or shards");
            }
            settings = Map.copyOf(settings);
            Objects.requireNonNull(presort, "presort");
            if (inflightPerShard < 1) {
                throw new IllegalArgumentException(
                        "sink.clickhouse.inflight_per_shard must be ≥ 1");
            }
            Objects.requireNonNull(outcomeTimeout, "outcomeTimeout");
            if (outcomeTimeout.isNegative()) {
                throw new IllegalArgumentException(
                        "sink.clickhouse.outcome_timeout must not be negative");
            }
            Objects.requireNonNull(schemaCheckInterval, "schemaCheckInterval");
            if (schemaCheckInterval.isNegative()) {
                throw new IllegalArgumentException(
                        "sink.clickhouse.schema_check_interval must not be negative");
            }
            tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        }

        /**
         * A sink with the default handling of unknown outcomes, whose batches go to their shard as
         * a whole (no sharding key).
         */
        public SinkSpec(
                List<ShardSpec> shards,
                String table,
                BatchSpec batch,
                int inflightPerShard,
                String compression,
                boolean presort,
                boolean partitionSplit,
                Map<String, String> settings,
                RetrySpec retry) {
            this(
                    shards,
                    table,
                    batch,
                    inflightPerShard,
                    compression,
                    presort,
                    partitionSplit,
                    settings,
                    retry,
                    null,
                    DEFAULT_OUTCOME_TIMEOUT);
        }

        /** A sink whose batches go to their shard as a whole (no sharding key). */
        public SinkSpec(
                List<ShardSpec> shards,
                String table,
                BatchSpec batch,
                int inflightPerShard,
                String compression,
                boolean presort,
                boolean partitionSplit,
                Map<String, String> settings,
                RetrySpec retry,
                OnUnknownOutcome onUnknownOutcome,
                Duration outcomeTimeout) {
            this(
                    shards,
                    table,
                    batch,
                    inflightPerShard,
                    compression,
                    PresortMode.of(presort),
                    partitionSplit,
                    settings,
                    retry,
                    onUnknownOutcome,
                    outcomeTimeout,
                    null,
                    null,
                    DEFAULT_SCHEMA_CHECK_INTERVAL,
                    Map.of());
        }

        /** A sink that sends each batch without splitting it by partition. */
        public SinkSpec(
                List<ShardSpec> shards,
                String table,
                BatchSpec batch,
                int inflightPerShard,
                String compression,
                boolean presort,
                Map<String, String> settings,
                RetrySpec retry) {
            this(
                    shards,
                    table,
                    batch,
                    inflightPerShard,
                    compression,
                    presort,
                    false,
                    settings,
                    retry);
        }

        /**
         * A sink into {@code table} over {@code shards}, every other field at its default: batches
         * of {@link #DEFAULT_BATCH}, {@link #DEFAULT_INFLIGHT_PER_SHARD} INSERTs per shard, LZ4,
         * {@link RetrySpec#DEFAULT}, no presort, split, settings, sharding key or cluster.
         */
        public static Builder builder(List<ShardSpec> shards, String table) {
            return new Builder(shards, table);
        }

        /** A builder holding every field of this sink, to change some. */
        public Builder toBuilder() {
            return new Builder(this);
        }

        /** The same sink writing to {@code newShards}. */
        public SinkSpec withShards(List<ShardSpec> newShards) {
            return toBuilder().shards(newShards).build();
        }

        /** The router of records to tables this sink describes ({@code table}, {@code tables}). */
        public TableRoute route() {
            return TableRoute.of(table, tables);
        }

        /** Builds a {@link SinkSpec}; {@link #build()} checks the fields as the record does. */
        public static final class Builder {
            private List<ShardSpec> shards;
            private String table;
            private BatchSpec batch = DEFAULT_BATCH;
            private int inflightPerShard = DEFAULT_INFLIGHT_PER_SHARD;
            private String compression = DEFAULT_COMPRESSION;
            private PresortMode presort = PresortMode.OFF;
            private boolean partitionSplit;
            private Map<String, String> settings = Map.of();
            private RetrySpec retry = RetrySpec.DEFAULT;
            private OnUnknownOutcome onUnknownOutcome;
            private Duration outcomeTimeout = DEFAULT_OUTCOME_TIMEOUT;
            private String shardBy;
            private String cluster;
            private Duration schemaCheckInterval = DEFAULT_SCHEMA_CHECK_INTERVAL;
            private Map<String, String> tables = Map.of();

            private Builder(List<ShardSpec> shards, String table) {
                this.shards = shards;
                this.table = table;
            }

            private Builder(SinkSpec s) {
                shards = s.shards;
                table = s.table;
                batch = s.batch;
                inflightPerShard = s.inflightPerShard;
                compression = s.compression;
                presort = s.presort;
                partitionSplit = s.partitionSplit;
                settings = s.settings;
                retry = s.retry;
                onUnknownOutcome = s.onUnknownOutcome;
                outcomeTimeout = s.outcomeTimeout;
                shardBy = s.shardBy;
                cluster = s.cluster;
                schemaCheckInterval = s.schemaCheckInterval;
                tables = s.tables;
            }

            public Builder shards(List<ShardSpec> shards) {
                this.shards = shards;
                return this;
            }

            public Builder table(String table) {
                this.table = table;
                return this;
            }

            public Builder batch(BatchSpec batch) {
                this.batch = batch;
                return this;
            }

            public Builder inflightPerShard(int inflightPerShard) {
                this.inflightPerShard = inflightPerShard;
                return this;
            }

            public Builder compression(String compression) {
                this.compression = compression;
                return this;
            }

            public Builder presort(PresortMode presort) {
                this.presort = presort;
                return this;
            }

            /** {@code on} for true, {@code off} for false. */
            public Builder presort(boolean presort) {
                return presort(PresortMode.of(presort));
            }

            public Builder partitionSplit(boolean partitionSplit) {
                this.partitionSplit = partitionSplit;
                return this;
            }

            public Builder settings(Map<String, String> settings) {
                this.settings = settings;
                return this;
            }

            public Builder retry(RetrySpec retry) {
                this.retry = retry;
                return this;
            }

            public Builder onUnknownOutcome(OnUnknownOutcome onUnknownOutcome) {
                this.onUnknownOutcome = onUnknownOutcome;
                return this;
            }

            public Builder outcomeTimeout(Duration outcomeTimeout) {
                this.outcomeTimeout = outcomeTimeout;
                return this;
            }

            public Builder shardBy(String shardBy) {
                this.shardBy = shardBy;
                return this;
            }

            public Builder cluster(String cluster) {
                this.cluster = cluster;
                return this;
            }

            public Builder schemaCheckInterval(Duration schemaCheckInterval) {
                this.schemaCheckInterval = schemaCheckInterval;
                return this;
            }

            public Builder tables(Map<String, String> tables) {
                this.tables = tables;
                return this;
            }

            /**
             * @throws IllegalArgumentException for fields the record refuses
             */
            public SinkSpec build() {
                return new SinkSpec(
                        shards,
                        table,
                        batch,
                        inflightPerShard,
                        compression,
                        presort,
                        partitionSplit,
                        settings,
                        retry,
                        onUnknownOutcome,
                        outcomeTimeout,
                        shardBy,
                        cluster,
                        schemaCheckInterval,
                        tables);
            }
        }
    }

    /** A shard: its replicas (URLs, tried in turn on retryable errors) and its routing weight. */
    public record ShardSpec(List<String> replicas, int weight) {
        public ShardSpec {
            replicas = List.copyOf(replicas);
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("a shard needs at least one replica URL");
            }
            if (weight < 1) {
                throw new IllegalArgumentException("a shard's weight must be ≥ 1");
            }
        }
    }

    /** A batch is sealed at whichever comes first. */
    public record BatchSpec(int maxRows, long maxBytes, Duration linger) {}

    /**
     * Exponential backoff with jitter: {@code initial × multiplier^n}, capped at {@code max},
     * randomized by ±{@code jitter} (a fraction); {@code maxAttempts} 0 = retry forever.
     *
     * @param giveUpAfter a batch that has failed for this long without any of its INSERTs being
     *     written stops the pipeline with its last error; {@link Duration#ZERO} = never
     */
    public record RetrySpec(
            Duration initial,
            Duration max,
            double multiplier,
            double jitter,
            int maxAttempts,
            Duration giveUpAfter) {
        /** How long a batch is retried without success before the pipeline stops, by default. */
        public static final Duration DEFAULT_GIVE_UP_AFTER = Duration.ofMinutes(10);

        /**
         * 100ms doubling to 10s, ±20%, any number of attempts — until a batch has failed for {@link
         * #DEFAULT_GIVE_UP_AFTER} without progress.
         */
        public static final RetrySpec DEFAULT =
                new RetrySpec(
                        Duration.ofMillis(100),
                        Duration.ofSeconds(10),
                        2.0,
                        0.2,
                        0,
                        DEFAULT_GIVE_UP_AFTER);

        public RetrySpec {
            java.util.Objects.requireNonNull(giveUpAfter, "giveUpAfter");
        }

        /** Backoff that gives up after {@link #DEFAULT_GIVE_UP_AFTER}. */
        public RetrySpec(
                Duration initial, Duration max, double multiplier, double jitter, int maxAttempts) {
            this(initial, max, multiplier, jitter, maxAttempts, DEFAULT_GIVE_UP_AFTER);
        }
    }

    /**
     * @param maxErrors stop when more records than this were rejected (skip or dead-letter); -1 =
     *     no limit
     */
    public record ErrorsSpec(ErrorPolicy policy, Path deadLetterPath, long maxErrors) {}

    /**
     * @param maxInflightBytes 0 = derived from the sizing rule (docs/pipeline.md)
     * @param high pause sources when in-flight bytes reach this fraction of the budget
     * @param low resume them below this fraction
     */
    public record BackpressureSpec(long maxInflightBytes, double high, double low) {}

    /**
     * @param dir where positions and the batch ledger are kept (null: no persistence, as for a
     *     one-shot {@code load} without {@code --resume})
     */
    public record CheckpointSpec(Duration interval, Path dir, Duration revokeTimeout) {
        /** How long a revoked partition's batches are waited for, unless configured. */
        public static final Duration DEFAULT_REVOKE_TIMEOUT = Duration.ofSeconds(30);

        public CheckpointSpec(Duration interval, Path dir) {
            this(interval, dir, DEFAULT_REVOKE_TIMEOUT);
        }
    }

    /**
     * @param listen host:port of the admin HTTP server, or null for none
     */
    public record AdminSpec(String listen) {}
}
