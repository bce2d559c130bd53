package dev.sluice.clickhouse.types;

/**
 * {@code JSON} (and the older {@code Object('json')}): inserted as JSON text. Servers that have the
 * type read it in its string serialization; {@code spelling} keeps the server's own name.
 */
public record JsonType(String spelling) implements ClickHouseType {
    @Override
    public String typeName() {
        return spelling;
    }
}
