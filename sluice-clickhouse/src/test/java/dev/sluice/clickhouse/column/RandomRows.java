package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.FixedStringType;
import dev.sluice.clickhouse.types.JsonType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.SimpleAggregateFunctionType;
import dev.sluice.clickhouse.types.SimpleType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

/**
 * Appends random valid rows to any column, through the public append API only: composite columns
 * through their parts, LowCardinality through value appends drawn from a small pool (so the
 * dictionary deduplicates).
 */
public final class RandomRows {
    private RandomRows() {}

    public static void append(Column c, Random r, int rows) {
        for (int i = 0; i < rows; i++) {
            append(c, r);
        }
    }

    /** Appends one random row. */
    public static void append(Column c, Random r) {
        switch (c) {
            case NullableColumn n -> {
                if (r.nextInt(4) == 0) {
                    n.appendNull();
                } else {
                    append(n.inner(), r);
                    n.markNotNull();
                }
            }
            case ArrayColumn a -> {
                int k = r.nextInt(4);
                for (int i = 0; i < k; i++) {
                    append(a.elements(), r);
                }
                a.endArray();
            }
            case MapColumn m -> {
                int k = r.nextInt(4);
                for (int i = 0; i < k; i++) {
                    append(m.keys(), r);
                    append(m.values(), r);
                }
                m.endMap();
            }
            case TupleColumn t -> {
                for (int i = 0; i < t.size(); i++) {
                    append(t.element(i), r);
                }
            }
            case LowCardinalityColumn lc -> {
                LowCardinalityType type = (LowCardinalityType) lc.type();
                if (type.isNullable() && r.nextInt(5) == 0) {
                    lc.appendNull();
                } else {
                    // A pool of about 8 values per column: repeats are the point.
                    leaf(lc, type.dictionaryType(), new Random(r.nextInt(8)));
                }
            }
            default -> leaf(c, c.type(), r);
        }
    }

    /** One random value of the scalar {@code type}, appended with the matching typed append. */
    static void leaf(Column c, ClickHouseType type, Random r) {
        switch (type) {
            case SimpleType s -> simple(c, s, r);
            case FixedStringType f -> c.appendBytes(bytes(r, r.nextInt(f.length() + 1)));
            case DateTimeType d -> c.appendLong(r.nextLong() >>> 32);
            case DateTime64Type d -> c.appendLong(r.nextLong());
            case DecimalType d -> c.appendBigDecimal(decimal(d, r));
            case EnumType e -> {
                EnumType.Entry entry = e.entries().get(r.nextInt(e.entries().size()));
                if (r.nextBoolean()) {
                    c.appendString(entry.name());
                } else {
                    c.appendLong(entry.value());
                }
            }
            case JsonType j -> c.appendString("{\"k\":" + r.nextInt() + "}");
            case SimpleAggregateFunctionType s -> leaf(c, s.wireType(), r);
            default -> throw new IllegalArgumentException("not a scalar: " + type.typeName());
        }
    }

    private static void simple(Column c, SimpleType s, Random r) {
        switch (s) {
            case INT8, INT16, INT32, INT64 ->
                    c.appendLong(r.nextLong() >> (64 - 8 * s.byteWidth()));
            case UINT8, UINT16, UINT32 -> c.appendLong(r.nextLong() >>> (64 - 8 * s.byteWidth()));
            case UINT64 -> c.appendUnsignedLong(r.nextLong());
            case INT128, INT256 -> {
                BigInteger v = new BigInteger(s.byteWidth() * 8 - 1, r);
                c.appendBigInteger(r.nextBoolean() ? v : v.negate().subtract(BigInteger.ONE));
            }
            case UINT128, UINT256 -> c.appendBigInteger(new BigInteger(s.byteWidth() * 8, r));
            case FLOAT32 -> c.appendDouble(Float.intBitsToFloat(r.nextInt()));
            case FLOAT64 -> c.appendDouble(Double.longBitsToDouble(r.nextLong()));
            case BFLOAT16 -> c.appendDouble(r.nextFloat() * 2000 - 1000);
            case BOOL -> c.appendBoolean(r.nextBoolean());
            case STRING -> c.appendString(text(r));
            case DATE -> c.appendLong(r.nextInt(65536));
            case DATE32 ->
                    c.appendLong(
                            ColumnFactory.DATE32_MIN
                                    + r.nextInt(
                                            (int)
                                                    (ColumnFactory.DATE32_MAX
                                                            - ColumnFactory.DATE32_MIN
                                                            + 1)));
            case UUID -> c.appendUuid(r.nextLong(), r.nextLong());
            case IPV4 -> c.appendLong(r.nextLong() >>> 32);
            case IPV6 -> c.appendBytes(bytes(r, 16));
            case NOTHING -> c.appendNull();
        }
    }

    static BigDecimal decimal(DecimalType d, Random r) {
        BigInteger limit = BigInteger.TEN.pow(d.precision());
        BigInteger v = new BigInteger(limit.bitLength() + 8, r).mod(limit);
        return new BigDecimal(r.nextBoolean() ? v : v.negate(), d.scale());
    }

    static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** Random text: ASCII (with NUL, tab, newline), 2- and 3-byte UTF-8, surrogate pairs. */
    public static String text(Random r) {
        int n = r.nextInt(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(6)) {
                case 0 -> sb.append((char) r.nextInt(0x80));
                case 1 -> sb.append((char) ('a' + r.nextInt(26)));
                case 2 -> sb.append((char) (0x80 + r.nextInt(0x800 - 0x80)));
                case 3 -> {
                    char ch = (char) (0x800 + r.nextInt(0x10000 - 0x800));
                    sb.append(Character.isSurrogate(ch) ? 'é' : ch);
                }
                case 4 -> sb.appendCodePoint(0x10000 + r.nextInt(0x10FFFF - 0x10000 + 1));
                default -> sb.append("\0\t\n".charAt(r.nextInt(3)));
            }
        }
        return sb.toString();
    }
}
