package dev.sluice.pipeline.writer;

/**
 * A submission the writer did not take because its in-flight limit was reached: at once under
 * {@link WhenFull#FAIL}, or after {@code maxWait} under {@link WhenFull#WAIT}. Nothing of the
 * submission was taken; the caller still owns its rows and may submit them again.
 */
public final class WriterFullException extends WriterException {
    public WriterFullException(String message) {
        super(message);
    }
}
