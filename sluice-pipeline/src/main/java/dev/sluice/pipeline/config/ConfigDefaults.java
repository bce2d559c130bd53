package dev.sluice.pipeline.config;

import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.FileSource;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The value of every key the configuration leaves out, in one place so that {@code sluice load}
 * (which builds its spec from flags) and the YAML loader agree. docs/configuration.md lists them.
 */
public final class ConfigDefaults {
    public static final String PIPELINE_NAME = "sluice";

    public static final long GENERATOR_ROWS = 0;
    public static final long GENERATOR_ROWS_PER_SECOND = 0;
    public static final long GENERATOR_SEED = 42;
    public static final int GENERATOR_PAYLOAD_ARENA = 2048;

    /** Long enough for any sane record, short enough that one bad line cannot exhaust memory. */
    public static final int MAX_RECORD_BYTES = 8 << 20;

    public static final Duration FILE_POLL_INTERVAL = FileSource.DEFAULT_POLL_INTERVAL;

    /** A schema registry's connect and request timeout. */
    public static final Duration REGISTRY_TIMEOUT = Duration.ofSeconds(10);

    /** How long a registry that does not answer is retried before the pipeline stops. */
    public static final Duration REGISTRY_GIVE_UP_AFTER = Duration.ofSeconds(30);

    /** How long a schema id the registry does not know is remembered as unknown. */
    public static final Duration REGISTRY_UNKNOWN_ID_TTL = Duration.ofMinutes(1);

    public static final int BATCH_MAX_ROWS = SinkSpec.DEFAULT_BATCH.maxRows();
    public static final long BATCH_MAX_BYTES = SinkSpec.DEFAULT_BATCH.maxBytes();
    public static final Duration BATCH_LINGER = SinkSpec.DEFAULT_BATCH.linger();
    public static final int INFLIGHT_PER_SHARD = SinkSpec.DEFAULT_INFLIGHT_PER_SHARD;
    public static final String COMPRESSION = SinkSpec.DEFAULT_COMPRESSION;
    public static final int SHARD_WEIGHT = 1;

    /**
     * 100ms doubling to 10s, ±20%, any number of attempts — until a batch has failed for 10 minutes
     * without progress: then the pipeline stops with the last error (nothing is lost: the batch is
     * not committed).
     */
    public static final RetrySpec RETRY = RetrySpec.DEFAULT;

    /** How often the writer looks at each table's columns for an ALTER while data flows. */
    public static final Duration SCHEMA_CHECK_INTERVAL = SinkSpec.DEFAULT_SCHEMA_CHECK_INTERVAL;

    /** How long an interrupted INSERT is looked up on its server before it counts as unknown. */
    public static final Duration OUTCOME_TIMEOUT = PipelineSpec.DEFAULT_OUTCOME_TIMEOUT;

    public static final ErrorPolicy ERROR_POLICY = ErrorPolicy.FAIL;
    public static final long MAX_ERRORS = -1;

    /** 0: derived from the sizing rule by the runtime (docs/pipeline.md). */
    public static final long MAX_INFLIGHT_BYTES = 0;

    public static final double HIGH_WATERMARK = 0.8;
    public static final double LOW_WATERMARK = 0.5;

    public static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

    public static final String ADMIN_LISTEN = "127.0.0.1:9464";

    private ConfigDefaults() {}

    /** Half the processors, at least one: the other half encodes, compresses and sends. */
    public static int threads(int processors) {
        return Math.max(1, processors / 2);
    }

    /** {@code .sluice/state/<pipeline name>}, relative to the working directory. */
    public static Path checkpointDir(String pipelineName) {
        return Path.of(".sluice", "state", pipelineName);
    }

    /** {@code .sluice/dead-letter/<pipeline name>.ndjson}, relative to the working directory. */
    public static Path deadLetterPath(String pipelineName) {
        return Path.of(".sluice", "dead-letter", pipelineName + ".ndjson");
    }
}
