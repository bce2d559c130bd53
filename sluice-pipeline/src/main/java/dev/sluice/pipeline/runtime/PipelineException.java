package dev.sluice.pipeline.runtime;

/** A pipeline could not start; the message says why, for a person to act on. */
public final class PipelineException extends Exception {
    public PipelineException(String message) {
        super(message);
    }

    public PipelineException(String message, Throwable cause) {
        super(message, cause);
    }
}
