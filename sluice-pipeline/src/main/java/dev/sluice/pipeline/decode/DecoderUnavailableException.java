package dev.sluice.pipeline.decode;

/**
 * A decoder cannot go on for a reason that is not the record's: something it depends on — a schema
 * registry — does not answer or refuses it. The runtime stops the pipeline with this message before
 * the record (it is not consumed, so the next run reads it again) instead of applying the error
 * policy to it, which would dead-letter good records while the registry is down.
 */
public class DecoderUnavailableException extends RuntimeException {
    public DecoderUnavailableException(String message) {
        super(message);
    }

    public DecoderUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
