package dev.sluice.clickhouse.column;

import static dev.sluice.clickhouse.column.ColumnTestSupport.encode;
import static dev.sluice.clickhouse.column.ColumnTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.WithNull;

/**
 * Properties over generated values: what is accepted round-trips exactly, and acceptance agrees
 * with an independent statement of each type's range.
 */
class ColumnPropertyTest {

    private static Column roundTrip(Column c) {
        Column decoded = ColumnTestSupport.decode(c.type().typeName(), encode(c), c.rows());
        assertThat(values(decoded)).isEqualTo(values(c));
        assertThat(encode(decoded)).isEqualTo(encode(c));
        return decoded;
    }

    // ---- integers ----

    @Provide
    Arbitrary<String> intTypes() {
        return Arbitraries.of(
                "Int8",
                "Int16",
                "Int32",
                "Int64",
                "UInt8",
                "UInt16",
                "UInt32",
                "UInt64",
                "Date",
                "Date32",
                "DateTime",
                "IPv4",
                "Bool");
    }

    @Provide
    Arbitrary<Long> anyLong() {
        return Arbitraries.oneOf(
                Arbitraries.longs(),
                Arbitraries.longs().between(-70_000, 70_000),
                Arbitraries.of(
                        -1L << 31,
                        (1L << 31) - 1,
                        1L << 32,
                        (1L << 32) - 1,
                        -25567L,
                        120529L,
                        120530L));
    }

    /** The range of each type, stated independently of the column code. */
    private static boolean fits(String type, long v) {
        return switch (type) {
            case "Int8" -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
            case "Int16" -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
            case "Int32" -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
            case "Int64", "DateTime64(3)" -> true;
            case "UInt8" -> v >= 0 && v <= 0xFF;
            case "UInt16", "Date" -> v >= 0 && v <= 0xFFFF;
            case "UInt32", "DateTime", "IPv4" -> v >= 0 && v <= 0xFFFF_FFFFL;
            case "UInt64" -> v >= 0;
            case "Date32" -> v >= -25567 && v <= 120529;
            case "Bool" -> v == 0 || v == 1;
            default -> throw new IllegalArgumentException(type);
        };
    }

    @Property(tries = 500)
    void integersAreAcceptedExactlyWithinTheirRange(
            @ForAll("intTypes") String type, @ForAll("anyLong") long v) {
        Column c = ColumnFactory.create("n", type);
        if (fits(type, v)) {
            c.appendLong(v);
            assertThat(roundTrip(c).getLong(0)).isEqualTo(v);
        } else {
            assertThatThrownBy(() -> c.appendLong(v))
                    .isInstanceOf(ColumnValueException.class)
                    .hasMessageContaining(Long.toString(v));
            assertThat(c.rows()).isZero();
        }
    }

    @Property(tries = 200)
    void uint64TakesAll64Bits(@ForAll List<Long> bits) {
        Column c = ColumnFactory.create("n", "UInt64");
        for (long b : bits) {
            c.appendUnsignedLong(b);
        }
        Column decoded = roundTrip(c);
        for (int i = 0; i < bits.size(); i++) {
            assertThat(decoded.getString(i)).isEqualTo(Long.toUnsignedString(bits.get(i)));
        }
    }

    @Provide
    Arbitrary<BigInteger> wideIntegers() {
        BigInteger limit = BigInteger.TWO.pow(260);
        return Arbitraries.oneOf(
                Arbitraries.bigIntegers().between(limit.negate(), limit),
                Arbitraries.bigIntegers()
                        .between(BigInteger.valueOf(-1000), BigInteger.valueOf(1000)),
                Arbitraries.integers()
                        .between(0, 258)
                        .flatMap(
                                e ->
                                        Arbitraries.of(-1, 0, 1)
                                                .map(
                                                        d ->
                                                                BigInteger.TWO
                                                                        .pow(e)
                                                                        .add(
                                                                                BigInteger.valueOf(
                                                                                        d))))
                        .flatMap(v -> Arbitraries.of(v, v.negate())));
    }

    @Property(tries = 500)
    void wideIntegersAreAcceptedExactlyWithinTheirRange(
            @ForAll("wideTypes") String type, @ForAll("wideIntegers") BigInteger v) {
        int bits = Integer.parseInt(type.replaceAll("\\D", ""));
        boolean signed = !type.startsWith("U");
        BigInteger min = signed ? BigInteger.TWO.pow(bits - 1).negate() : BigInteger.ZERO;
        BigInteger max =
                (signed ? BigInteger.TWO.pow(bits - 1) : BigInteger.TWO.pow(bits))
                        .subtract(BigInteger.ONE);
        Column c = ColumnFactory.create("n", type);
        if (v.compareTo(min) >= 0 && v.compareTo(max) <= 0) {
            c.appendBigInteger(v);
            assertThat(new BigInteger(roundTrip(c).getString(0))).isEqualTo(v);
        } else {
            assertThatThrownBy(() -> c.appendBigInteger(v))
                    .isInstanceOf(ColumnValueException.class)
                    .hasMessageContaining(v.toString());
        }
    }

    @Provide
    Arbitrary<String> wideTypes() {
        return Arbitraries.of(
                "Int64", "UInt64", "Int128", "UInt128", "Int256", "UInt256", "Int32", "UInt32");
    }

    // ---- decimals ----

    @Provide
    Arbitrary<String> decimalTypes() {
        return Combinators.combine(
                        Arbitraries.of(1, 5, 9, 10, 18, 19, 38, 39, 76),
                        Arbitraries.integers().between(0, 76))
                .as((p, s) -> "Decimal(" + p + ", " + Math.min(s, p) + ")");
    }

    @Provide
    Arbitrary<BigDecimal> decimals() {
        Arbitrary<BigInteger> unscaled =
                Arbitraries.oneOf(
                        Arbitraries.bigIntegers()
                                .between(BigInteger.TEN.pow(80).negate(), BigInteger.TEN.pow(80)),
                        Arbitraries.integers()
                                .between(1, 78)
                                .flatMap(
                                        d ->
                                                Arbitraries.of(
                                                        BigInteger.TEN.pow(d),
                                                        BigInteger.TEN
                                                                .pow(d)
                                                                .subtract(BigInteger.ONE),
                                                        BigInteger.TEN.pow(d).negate(),
                                                        BigInteger.TEN
                                                                .pow(d)
                                                                .subtract(BigInteger.ONE)
                                                                .negate())));
        return Combinators.combine(unscaled, Arbitraries.integers().between(-3, 80))
                .as(BigDecimal::new);
    }

    @Property(tries = 1000)
    void decimalsAreAcceptedWhenTheyFitWithoutRounding(
            @ForAll("decimalTypes") String type, @ForAll("decimals") BigDecimal v) {
        String[] ps = type.replaceAll("[^0-9,]", "").split(",");
        int precision = Integer.parseInt(ps[0]);
        int scale = Integer.parseInt(ps[1]);
        BigDecimal exact = v.stripTrailingZeros();
        boolean fits =
                Math.max(exact.scale(), 0) <= scale
                        && exact.setScale(scale)
                                        .unscaledValue()
                                        .abs()
                                        .compareTo(BigInteger.TEN.pow(precision))
                                < 0;
        Column c = ColumnFactory.create("d", type);
        if (fits) {
            c.appendBigDecimal(v);
            assertThat(((BigDecimal) roundTrip(c).getObject(0)).compareTo(v)).isZero();
        } else {
            assertThatThrownBy(() -> c.appendBigDecimal(v))
                    .isInstanceOf(ColumnValueException.class)
                    .hasMessageContaining(v.toPlainString());
            assertThat(c.rows()).isZero();
        }
    }

    // ---- floats ----

    @Property(tries = 300)
    void float64KeepsEveryBitPattern(@ForAll List<Long> bits) {
        Column c = ColumnFactory.create("f", "Float64");
        for (long b : bits) {
            c.appendDouble(Double.longBitsToDouble(b));
        }
        Column decoded = roundTrip(c);
        for (int i = 0; i < bits.size(); i++) {
            assertThat(Double.doubleToRawLongBits(decoded.getDouble(i))).isEqualTo(bits.get(i));
        }
    }

    @Property(tries = 500)
    void float32RejectsOnlyFiniteValuesThatOverflow(@ForAll long bits) {
        double v = Double.longBitsToDouble(bits);
        Column c = ColumnFactory.create("f", "Float32");
        if (Double.isFinite(v) && Float.isInfinite((float) v)) {
            assertThatThrownBy(() -> c.appendDouble(v)).isInstanceOf(ColumnValueException.class);
        } else {
            c.appendDouble(v);
            assertThat(Float.floatToIntBits((float) roundTrip(c).getDouble(0)))
                    .isEqualTo(Float.floatToIntBits((float) v));
        }
    }

    @Property(tries = 1000)
    void bfloat16IsTheNearestValueTiesToEven(@ForAll float f) {
        Column c = ColumnFactory.create("f", "BFloat16");
        if (Float.isNaN(f) || Float.isInfinite(f)) {
            c.appendDouble(f);
            assertThat(Float.floatToIntBits((float) roundTrip(c).getDouble(0)))
                    .isEqualTo(Float.floatToIntBits(f));
            return;
        }
        // The BFloat16 neighbours of f: truncated towards zero, and one BFloat16 step further.
        int top = Float.floatToRawIntBits(f) >>> 16;
        double down = Float.intBitsToFloat(top << 16);
        double step = Math.ulp(Float.intBitsToFloat(top << 16)) * 65536.0;
        double up = down + Math.copySign(step, f);
        double dDown = Math.abs(f - down);
        double dUp = Math.abs(up - f);
        double expected = dDown < dUp || (dDown == dUp && (top & 1) == 0) ? down : up;

        if (Math.abs(expected) >= 0x1p128) {
            assertThatThrownBy(() -> c.appendDouble(f)).isInstanceOf(ColumnValueException.class);
            return;
        }
        c.appendDouble(f);
        assertThat(roundTrip(c).getDouble(0)).as("%s", f).isEqualTo(expected);
    }

    // ---- text ----

    @Provide
    Arbitrary<String> anyText() {
        // All UTF-16 units, so unpaired surrogates occur; plus well-formed supplementary text.
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(30),
                Arbitraries.integers()
                        .between(0, 0x10FFFF)
                        .filter(cp -> cp < 0xD800 || cp > 0xDFFF)
                        .list()
                        .ofMaxSize(10)
                        .map(
                                cps -> {
                                    StringBuilder sb = new StringBuilder();
                                    cps.forEach(sb::appendCodePoint);
                                    return sb.toString();
                                }));
    }

    private static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (Character.isHighSurrogate(ch)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(ch)) {
                return false;
            }
        }
        return true;
    }

    @Property(tries = 1000)
    void stringsEncodeAsTheJdkDoesOrAreRejectedWhenMalformed(@ForAll("anyText") String s) {
        StringColumn c = (StringColumn) ColumnFactory.create("s", "String");
        if (wellFormed(s)) {
            c.appendString(s);
            char[] chars = ("<" + s + ">").toCharArray();
            c.appendChars(chars, 1, s.length());
            assertThat(c.getBytes(0)).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
            assertThat(c.getBytes(1)).isEqualTo(c.getBytes(0));
            assertThat(roundTrip(c).getString(0)).isEqualTo(s);
        } else {
            assertThatThrownBy(() -> c.appendString(s)).isInstanceOf(ColumnValueException.class);
            assertThat(c.rows()).isZero();
            assertThat(c.bytesUsed()).isZero();
        }
    }

    @Provide
    Arbitrary<String> text() {
        return anyText().filter(ColumnPropertyTest::wellFormed);
    }

    // ---- composites ----

    @Property(tries = 200)
    void arraysOfNullableStringsRoundTrip(
            @ForAll @Size(max = 20)
                    List<@Size(max = 6) List<@WithNull(0.3) @From("text") String>> rows) {
        ArrayColumn a = (ArrayColumn) ColumnFactory.create("a", "Array(Nullable(String))");
        for (List<String> row : rows) {
            for (String s : row) {
                if (s == null) {
                    a.elements().appendNull();
                } else {
                    a.elements().appendString(s);
                }
            }
            a.endArray();
        }
        Column decoded = roundTrip(a);
        for (int r = 0; r < rows.size(); r++) {
            assertThat(decoded.getObject(r)).isEqualTo(rows.get(r));
        }
    }

    @Property(tries = 200)
    void lowCardinalityKeepsOneKeyPerDistinctValue(
            @ForAll @Size(max = 300) List<@From("smallPool") String> rows) {
        LowCardinalityColumn c =
                (LowCardinalityColumn) ColumnFactory.create("lc", "LowCardinality(String)");
        rows.forEach(c::appendString);
        assertThat(c.dictionary().rows()).isEqualTo(new HashSet<>(rows).size());
        Map<String, Integer> keyOf = new java.util.HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Integer first = keyOf.putIfAbsent(rows.get(i), c.index(i));
            if (first != null) {
                assertThat(c.index(i)).isEqualTo(first);
            }
        }
        assertThat(new HashSet<>(keyOf.values())).hasSize(keyOf.size());
        assertThat(values(roundTrip(c))).isEqualTo(new ArrayList<Object>(rows));
    }

    @Provide
    Arbitrary<String> smallPool() {
        return Arbitraries.of("", "a", "b", "ab", "ba", "é", "😀", "\0", "long value ".repeat(20));
    }

    @Property(tries = 200)
    void mapsKeepEntryOrderAndNullValues(
            @ForAll @Size(max = 10)
                    List<@Size(max = 5) Map<@From("text") String, @WithNull Long>> rows) {
        MapColumn m = (MapColumn) ColumnFactory.create("m", "Map(String, Nullable(Int64))");
        for (Map<String, Long> row : rows) {
            row.forEach(
                    (k, v) -> {
                        m.keys().appendString(k);
                        if (v == null) {
                            m.values().appendNull();
                        } else {
                            m.values().appendLong(v);
                        }
                    });
            m.endMap();
        }
        Column decoded = roundTrip(m);
        for (int r = 0; r < rows.size(); r++) {
            assertThat(decoded.getObject(r)).isEqualTo(rows.get(r));
        }
    }

    @Property(tries = 100)
    void anyTruncationOfAnyTypeIsAWireException(
            @ForAll("contractTypes") String type, @ForAll long seed) {
        Column c = ColumnFactory.create("c", type);
        RandomRows.append(c, new java.util.Random(seed), 8);
        byte[] bytes = encode(c);
        int cut = (int) Math.floorMod(seed, (long) bytes.length);
        Column d = ColumnFactory.create("c", type);
        dev.sluice.clickhouse.io.WireInput in =
                dev.sluice.clickhouse.io.WireInput.of(Arrays.copyOf(bytes, cut));
        assertThatThrownBy(
                        () -> {
                            d.readPrefix(in);
                            d.readData(in, 8);
                        })
                .isInstanceOf(dev.sluice.clickhouse.io.WireException.class);
    }

    @Provide
    Arbitrary<String> contractTypes() {
        return Arbitraries.of(ColumnContractTest.types());
    }
}
