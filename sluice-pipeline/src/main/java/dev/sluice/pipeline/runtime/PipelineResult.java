package dev.sluice.pipeline.runtime;

import java.util.Map;

/**
 * How a pipeline ended.
 *
 * @param message what a person reads: for a failure, where it stopped and where to resume
 * @param committed the committed position of every partition read, after the end
 * @param failure the failure, or null
 */
public record PipelineResult(
        Status status,
        String message,
        Map<String, Long> committed,
        PipelineStats stats,
        Failure failure) {

    public enum Status {
        /** Every source ended and everything read is handled. */
        COMPLETED,
        /**
         * {@link Pipeline#drain} ended it before every source ended: everything read is handled;
         * the rest is for the next run to read, from the committed positions.
         */
        DRAINED,
        /** {@link Pipeline#stop} ended it: what was open or queued will be read again. */
        STOPPED,
        /** A record (by policy), the sink, or the source stopped it. */
        FAILED
    }

    public PipelineResult {
        committed = Map.copyOf(committed);
    }

    public boolean failed() {
        return status == Status.FAILED;
    }
}
