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

    /** Where records come from. */
    public sealed interface SourceSpec permits GeneratorSource, FileSource, StdinSource {}

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

    /** The input formats. */
    public enum Format {
        JSON,
        CSV,
        TSV,
        /** The generator's own rows, no parsing. */
        GENERATOR
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
     */
    public record DecodeSpec(
            Format format,
            List<String> columns,
            boolean header,
            Map<String, String> fields,
            boolean ignoreUnknown,
            char delimiter) {
        public DecodeSpec {
            columns = List.copyOf(columns);
            fields = Map.copyOf(fields);
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
     * The ClickHouse sink.
     *
     * @param shards one or more shards; a record goes to exactly one
     * @param presort sort each batch by the table's sorting key before sending
     * @param partitionSplit split each batch by the table's partition key, one INSERT per partition
     * @param settings extra ClickHouse settings for every INSERT
     * @param onUnknownOutcome for an INSERT whose outcome stays unknown; null: {@code resend} for a
     *     table that deduplicates, {@code fail} for one that cannot
     * @param outcomeTimeout how long an interrupted INSERT is looked up on its server (while it
     *     runs there, or while the server does not answer) before its outcome counts as unknown
     */
    public record SinkSpec(
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
        public SinkSpec {
            shards = List.copyOf(shards);
            if (shards.isEmpty()) {
                throw new IllegalArgumentException("sink.clickhouse needs a url or shards");
            }
            settings = Map.copyOf(settings);
            if (inflightPerShard < 1) {
                throw new IllegalArgumentException(
                        "sink.clickhouse.inflight_per_shard must be ≥ 1");
            }
            Objects.requireNonNull(outcomeTimeout, "outcomeTimeout");
            if (outcomeTimeout.isNegative()) {
                throw new IllegalArgumentException(
                        "sink.clickhouse.outcome_timeout must not be negative");
            }
        }

        /** A sink with the default handling of unknown outcomes. */
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
     */
    public record RetrySpec(
            Duration initial, Duration max, double multiplier, double jitter, int maxAttempts) {}

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
    public record CheckpointSpec(Duration interval, Path dir) {}

    /**
     * @param listen host:port of the admin HTTP server, or null for none
     */
    public record AdminSpec(String listen) {}
}
