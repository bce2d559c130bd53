package dev.sluice.clickhouse.types;

/** Types without parameters. {@link #byteWidth()} is the fixed size per row, or -1. */
public enum SimpleType implements ClickHouseType {
    INT8("Int8", 1),
    INT16("Int16", 2),
    INT32("Int32", 4),
    INT64("Int64", 8),
    INT128("Int128", 16),
    INT256("Int256", 32),
    UINT8("UInt8", 1),
    UINT16("UInt16", 2),
    UINT32("UInt32", 4),
    UINT64("UInt64", 8),
    UINT128("UInt128", 16),
    UINT256("UInt256", 32),
    FLOAT32("Float32", 4),
    FLOAT64("Float64", 8),
    BFLOAT16("BFloat16", 2),
    BOOL("Bool", 1),
    STRING("String", -1),
    DATE("Date", 2),
    DATE32("Date32", 4),
    UUID("UUID", 16),
    IPV4("IPv4", 4),
    IPV6("IPv6", 16),
    /** The type of NULL literals: one placeholder byte per row. */
    NOTHING("Nothing", 1);

    private final String typeName;
    private final int byteWidth;

    SimpleType(String typeName, int byteWidth) {
        this.typeName = typeName;
        this.byteWidth = byteWidth;
    }

    @Override
    public String typeName() {
        return typeName;
    }

    @Override
    public String toString() {
        return typeName;
    }

    public int byteWidth() {
        return byteWidth;
    }

    public boolean isSignedInteger() {
        return this == INT8
                || this == INT16
                || this == INT32
                || this == INT64
                || this == INT128
                || this == INT256;
    }

    public boolean isUnsignedInteger() {
        return this == UINT8
                || this == UINT16
                || this == UINT32
                || this == UINT64
                || this == UINT128
                || this == UINT256;
    }

    /** Looks up a simple type by its exact ClickHouse name; null when there is none. */
    static SimpleType byName(String name) {
        for (SimpleType t : values()) {
            if (t.typeName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
