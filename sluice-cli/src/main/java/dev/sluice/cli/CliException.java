package dev.sluice.cli;

/** An expected failure with a message meant for the user as it is. */
final class CliException extends RuntimeException {
    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
