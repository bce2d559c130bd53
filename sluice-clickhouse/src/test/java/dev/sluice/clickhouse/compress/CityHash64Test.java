package dev.sluice.clickhouse.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * CityHash64 v1.0.2 against values ClickHouse 18.16 computed ({@code SELECT cityHash64(...)}); the
 * server comparison over thousands of strings of every length class is in sluice-table's {@code
 * FunctionsServerIT}.
 */
class CityHash64Test {

    private static long hash(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return CityHash64.hash(b, 0, b.length);
    }

    @Test
    void knownValuesFromTheServer() {
        assertThat(Long.toUnsignedString(hash("abc"))).isEqualTo("4220206313085259313");
        // cityHash64('a', 'b', 'c'): the first hash, then Hash128to64 with each further one.
        long abc = CityHash64.combine(CityHash64.combine(hash("a"), hash("b")), hash("c"));
        assertThat(Long.toUnsignedString(abc)).isEqualTo("9684406651005280037");
    }

    @Test
    void everyLengthClass() {
        // 0..16, 17..32, 33..64 and the 64-byte loop take different paths: hash a prefix of each.
        StringBuilder sb = new StringBuilder();
        long previous = hash("");
        for (int len = 1; len <= 200; len++) {
            sb.append((char) ('a' + len % 26));
            long h = hash(sb.toString());
            assertThat(h).as("length %d", len).isNotEqualTo(previous);
            previous = h;
        }
    }

    @Property(tries = 200)
    void hashesOnlyTheSlice(
            @ForAll @Size(max = 300) byte[] data,
            @ForAll @IntRange(max = 20) int before,
            @ForAll @IntRange(max = 20) int after) {
        byte[] padded = new byte[before + data.length + after];
        java.util.Arrays.fill(padded, (byte) 0x5A);
        System.arraycopy(data, 0, padded, before, data.length);
        assertThat(CityHash64.hash(padded, before, data.length))
                .isEqualTo(CityHash64.hash(data, 0, data.length));
    }

    @Test
    void refusesASliceOutsideTheArray() {
        assertThatThrownBy(() -> CityHash64.hash(new byte[4], 2, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
