package dev.sluice.clickhouse.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shortest float text: the digits must be the JDK's (Double.toString and Float.toString are the
 * shortest-uniquely-identifying decimals since JDK 19), the layout ClickHouse's.
 */
class FloatTextTest {

    static String text(double v) {
        byte[] b = new byte[FloatText.MAX_CHARS];
        int n = FloatText.write(v, b, 0, new int[1]);
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    static String text(float v) {
        byte[] b = new byte[FloatText.MAX_CHARS];
        int n = FloatText.write(v, b, 0, new int[1]);
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    /** ClickHouse prints these (double-conversion ToShortest, decimal range [1e-6, 1e21)). */
    @ParameterizedTest
    @CsvSource({
        "0.1, 0.1",
        "1500, 1500",
        "-2.5, -2.5",
        "0.000001, 0.000001",
        "1e-7, 1e-7",
        "1.5e-7, 1.5e-7",
        "1e20, 100000000000000000000",
        "1e21, 1e21",
        "1e23, 1e23",
        "123456789012345678, 123456789012345680",
        "0.30000000000000004, 0.30000000000000004",
        "1.7976931348623157e308, 1.7976931348623157e308",
        "2.2250738585072014E-308, 2.2250738585072014e-308",
        "1e-300, 1e-300",
        "9007199254740993, 9007199254740992",
        "-0.0, -0",
        "0.0, 0",
        "4.9e-324, 4.9e-324",
        "123.456, 123.456",
    })
    void doublesAsTheServerPrintsThem(double v, String expected) {
        assertThat(text(v)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "0.1, 0.1",
        "1.5, 1.5",
        "3.4028235e38, 3.4028235e38",
        "1.4e-45, 1.4e-45",
        "1.17549435E-38, 1.1754944e-38",
        "16777216, 16777216",
        "100000, 100000",
        "-0.0, -0",
    })
    void floatsAsTheServerPrintsThem(float v, String expected) {
        assertThat(text(v)).isEqualTo(expected);
    }

    @Property(tries = 20000)
    void everyDoubleHasTheJdkDigitsAndReadsBack(@ForAll("doubles") double v) {
        String ours = text(v);
        assertThat(Double.doubleToRawLongBits(Double.parseDouble(ours)))
                .as(ours)
                .isEqualTo(Double.doubleToRawLongBits(v));
        assertThat(new BigDecimal(ours).compareTo(new BigDecimal(Double.toString(v))))
                .as("%s vs %s", ours, Double.toString(v))
                .isZero();
    }

    @Property(tries = 20000)
    void everyFloatHasTheJdkDigitsAndReadsBack(@ForAll("floats") float v) {
        String ours = text(v);
        assertThat(Float.floatToRawIntBits(Float.parseFloat(ours)))
                .as(ours)
                .isEqualTo(Float.floatToRawIntBits(v));
        assertThat(new BigDecimal(ours).compareTo(new BigDecimal(Float.toString(v))))
                .as("%s vs %s", ours, Float.toString(v))
                .isZero();
    }

    @Provide
    Arbitrary<Double> doubles() {
        return Arbitraries.oneOf(
                        Arbitraries.longs().map(Double::longBitsToDouble),
                        Arbitraries.longs()
                                .between(0, (1L << 52) + 10)
                                .map(Double::longBitsToDouble),
                        Arbitraries.integers().between(-330, 310).map(e -> Math.pow(10, e)),
                        Arbitraries.integers().between(-1074, 1023).map(e -> Math.scalb(1.0, e)),
                        Arbitraries.longs()
                                .between(-1_000_000_000L, 1_000_000_000L)
                                .map(l -> l / 1000.0))
                .filter(Double::isFinite);
    }

    @Provide
    Arbitrary<Float> floats() {
        return Arbitraries.oneOf(
                        Arbitraries.integers().map(Float::intBitsToFloat),
                        Arbitraries.integers()
                                .between(0, (1 << 23) + 10)
                                .map(Float::intBitsToFloat),
                        Arbitraries.integers().between(-149, 127).map(e -> Math.scalb(1.0f, e)),
                        Arbitraries.integers().between(-46, 38).map(e -> (float) Math.pow(10, e)))
                .filter(Float::isFinite);
    }

    /** A sweep over the Float32 bit patterns (every 997th), both signs, subnormals included. */
    @Test
    void sweepOfFloat32() {
        for (long bits = 0; bits < 0x7F80_0000L; bits += 997) {
            float v = Float.intBitsToFloat((int) bits);
            String ours = text(v);
            String jdk = Float.toString(v);
            if (new BigDecimal(ours).compareTo(new BigDecimal(jdk)) != 0) {
                assertThat(ours).as("bits %x", bits).isEqualTo(jdk);
            }
        }
    }

    @Test
    void randomDoublesMatchTheJdk() {
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 2_000_000; i++) {
            double v = Double.longBitsToDouble(r.nextLong());
            if (!Double.isFinite(v)) {
                continue;
            }
            String ours = text(v);
            if (new BigDecimal(ours).compareTo(new BigDecimal(Double.toString(v))) != 0) {
                assertThat(ours)
                        .as("bits %x", Double.doubleToRawLongBits(v))
                        .isEqualTo(Double.toString(v));
            }
        }
    }

    /** The floor-log approximations are exact over every exponent the method uses. */
    @Test
    void floorLogsAreExact() {
        for (int e = -1500; e <= 1500; e++) {
            assertThat(FloatText.flog10pow2(e))
                    .as("flog10pow2(%d)", e)
                    .isEqualTo(floorLog10Pow2(e, 1, 1));
            assertThat(FloatText.flog10threeQuartersPow2(e))
                    .as("flog10threeQuartersPow2(%d)", e)
                    .isEqualTo(floorLog10Pow2(e, 3, 4));
        }
        for (int e = -400; e <= 400; e++) {
            // floor(log2(10^e)): the bit length of 10^e minus one, or minus the ceiling for e < 0
            BigInteger p = BigInteger.TEN.pow(Math.abs(e));
            int expected =
                    e >= 0 ? p.bitLength() - 1 : -(p.bitLength() - (p.bitCount() == 1 ? 1 : 0));
            assertThat(FloatText.flog2pow10(e)).as("flog2pow10(%d)", e).isEqualTo(expected);
        }
    }

    /** floor(log10(num/den 2^e)) by exact comparison with powers of ten. */
    private static int floorLog10Pow2(int e, int num, int den) {
        // value = num 2^e / den; find k with 10^k <= value < 10^(k+1)
        BigInteger n = BigInteger.valueOf(num);
        BigInteger d = BigInteger.valueOf(den);
        if (e >= 0) {
            n = n.shiftLeft(e);
        } else {
            d = d.shiftLeft(-e);
        }
        int k = (int) Math.floor(e * Math.log10(2) + Math.log10((double) num / den)) - 2;
        while (compare(n, d, k + 1) >= 0) {
            k++;
        }
        while (compare(n, d, k) < 0) {
            k--;
        }
        return k;
    }

    /** Sign of n/d - 10^k. */
    private static int compare(BigInteger n, BigInteger d, int k) {
        return k >= 0
                ? n.compareTo(d.multiply(BigInteger.TEN.pow(k)))
                : n.multiply(BigInteger.TEN.pow(-k)).compareTo(d);
    }
}
