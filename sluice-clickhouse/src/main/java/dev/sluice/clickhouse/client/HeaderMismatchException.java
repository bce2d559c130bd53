package dev.sluice.clickhouse.client;

/**
 * A block's columns do not match what the server announced for the INSERT — their number, a name,
 * or a type: the table is not (or no longer) the one the block was made for, as after an {@code
 * ALTER TABLE}. Nothing of the block was sent, and the connection stays usable.
 */
public class HeaderMismatchException extends ClickHouseException {
    public HeaderMismatchException(String message) {
        super(message);
    }
}
