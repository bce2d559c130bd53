package dev.sluice.clickhouse.types;

/** {@code DateTime} or {@code DateTime('tz')}: UInt32 seconds since the epoch. */
public record DateTimeType(String timezone) implements ClickHouseType {
    /** {@code DateTime} without a time zone (the server's zone applies to text). */
    public static final DateTimeType PLAIN = new DateTimeType(null);

    @Override
    public String typeName() {
        return timezone == null ? "DateTime" : "DateTime(" + TypeParser.quote(timezone) + ")";
    }
}
