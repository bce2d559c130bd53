package dev.sluice.pipeline.decode.convert;

/**
 * A value that cannot become a value of its column's type: not a number, not a date, too many
 * fractional digits... The message is the reason only; the decoder that catches it adds the column
 * and its type. Stackless, because bad input can be plentiful and the stack says nothing useful.
 */
public final class ConversionException extends RuntimeException {
    public ConversionException(String reason) {
        super(reason, null, false, false);
    }
}
