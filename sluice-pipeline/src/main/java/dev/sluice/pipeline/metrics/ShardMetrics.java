package dev.sluice.pipeline.metrics;

import dev.sluice.pipeline.sink.ErrorClass;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;

/** The series of one shard, resolved once (property 7). */
public final class ShardMetrics {
    /** Rows durably acknowledged. */
    public final CounterDataPoint records;

    /** Uncompressed Native bytes of acknowledged batches. */
    public final CounterDataPoint bytes;

    /** Bytes on the wire (after compression) of acknowledged batches. */
    public final CounterDataPoint wireBytes;

    public final CounterDataPoint batches;

    /** INSERTs acknowledged (a batch split by partition or into default groups makes several). */
    public final CounterDataPoint inserts;

    public final CounterDataPoint retries;
    public final DistributionDataPoint insertSeconds;
    private final CounterDataPoint connectionErrors;
    private final CounterDataPoint serverErrors;
    private final CounterDataPoint fatalErrors;

    ShardMetrics(
            CounterDataPoint records,
            CounterDataPoint bytes,
            CounterDataPoint wireBytes,
            CounterDataPoint batches,
            CounterDataPoint inserts,
            CounterDataPoint retries,
            DistributionDataPoint insertSeconds,
            CounterDataPoint connectionErrors,
            CounterDataPoint serverErrors,
            CounterDataPoint fatalErrors) {
        this.records = records;
        this.bytes = bytes;
        this.wireBytes = wireBytes;
        this.batches = batches;
        this.inserts = inserts;
        this.retries = retries;
        this.insertSeconds = insertSeconds;
        this.connectionErrors = connectionErrors;
        this.serverErrors = serverErrors;
        this.fatalErrors = fatalErrors;
    }

    /** The error counter for failed inserts of class {@code c}. */
    public CounterDataPoint errors(ErrorClass c) {
        return switch (c) {
            case CONNECTION -> connectionErrors;
            case SERVER -> serverErrors;
            case FATAL -> fatalErrors;
        };
    }
}
