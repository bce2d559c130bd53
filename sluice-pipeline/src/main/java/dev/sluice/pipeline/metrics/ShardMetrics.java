package dev.sluice.pipeline.metrics;

import dev.sluice.pipeline.sink.ErrorClass;
import dev.sluice.pipeline.sink.OutcomeCheck;
import dev.sluice.pipeline.sink.RetryReason;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.Map;

/** The series of one shard, resolved once (property 7). */
public final class ShardMetrics {
    /** Rows known written: acknowledged, or found written in the server's query log. */
    public final CounterDataPoint records;

    /** Uncompressed Native bytes of written INSERTs. */
    public final CounterDataPoint bytes;

    /** Bytes on the wire (after compression) of acknowledged INSERTs. */
    public final CounterDataPoint wireBytes;

    public final CounterDataPoint batches;

    /** INSERTs written (a batch split by partition or into default groups makes several). */
    public final CounterDataPoint inserts;

    public final DistributionDataPoint insertSeconds;

    /** Extra copies of rows known to be in the table: an INSERT found written twice. */
    public final CounterDataPoint rowsDuplicated;

    /** Rows sent again after their outcome stayed unknown: maybe in the table twice. */
    public final CounterDataPoint rowsPossiblyDuplicated;

    /** Rows of INSERTs whose outcome is unknown and that this run did not send again. */
    public final CounterDataPoint rowsUnresolved;

    /** Rows of replayed INSERTs an earlier run wrote (found in the server's log): not sent. */
    public final CounterDataPoint rowsAlreadyWritten;

    /**
     * Rows the server rejected for their content: dead-lettered or skipped (errors.policy), the
     * rest of their batch written.
     */
    public final CounterDataPoint rowsRejected;

    /** INSERTs sent in halves because the server refused their size. */
    public final CounterDataPoint sizeSplits;

    /** INSERTs sent in halves to find the rows the server rejected for their content. */
    public final CounterDataPoint contentSplits;

    /** Rows staged for an older layout of their table, re-encoded after it was altered. */
    public final CounterDataPoint rowsReencoded;

    private final Map<RetryReason, CounterDataPoint> retries;
    private final Map<ErrorClass, CounterDataPoint> errors;
    private final Map<OutcomeCheck, CounterDataPoint> checks;

    ShardMetrics(
            CounterDataPoint records,
            CounterDataPoint bytes,
            CounterDataPoint wireBytes,
            CounterDataPoint batches,
            CounterDataPoint inserts,
            DistributionDataPoint insertSeconds,
            CounterDataPoint rowsDuplicated,
            CounterDataPoint rowsPossiblyDuplicated,
            CounterDataPoint rowsUnresolved,
            CounterDataPoint rowsAlreadyWritten,
            CounterDataPoint rowsRejected,
            CounterDataPoint sizeSplits,
            CounterDataPoint contentSplits,
            CounterDataPoint rowsReencoded,
            Map<RetryReason, CounterDataPoint> retries,
            Map<ErrorClass, CounterDataPoint> errors,
            Map<OutcomeCheck, CounterDataPoint> checks) {
        this.records = records;
        this.bytes = bytes;
        this.wireBytes = wireBytes;
        this.batches = batches;
        this.inserts = inserts;
        this.insertSeconds = insertSeconds;
        this.rowsDuplicated = rowsDuplicated;
        this.rowsPossiblyDuplicated = rowsPossiblyDuplicated;
        this.rowsUnresolved = rowsUnresolved;
        this.rowsAlreadyWritten = rowsAlreadyWritten;
        this.rowsRejected = rowsRejected;
        this.sizeSplits = sizeSplits;
        this.contentSplits = contentSplits;
        this.rowsReencoded = rowsReencoded;
        this.retries = Map.copyOf(retries);
        this.errors = Map.copyOf(errors);
        this.checks = Map.copyOf(checks);
    }

    /** The counter of INSERTs sent again for {@code reason}. */
    public CounterDataPoint retries(RetryReason reason) {
        return retries.get(reason);
    }

    /** INSERTs sent again, for every reason. */
    public long retriesTotal() {
        long n = 0;
        for (CounterDataPoint c : retries.values()) {
            n += c.getLongValue();
        }
        return n;
    }

    /** The error counter for failed inserts of class {@code c}. */
    public CounterDataPoint errors(ErrorClass c) {
        return errors.get(c);
    }

    /** The counter of outcome look-ups that found {@code result}. */
    public CounterDataPoint checks(OutcomeCheck result) {
        return checks.get(result);
    }
}
