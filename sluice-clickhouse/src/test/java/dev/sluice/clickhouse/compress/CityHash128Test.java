package dev.sluice.clickhouse.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.compress.CityHash128.Hash128;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CityHash128Test {

    private static Hash128 hash(String ascii) {
        byte[] b = ascii.getBytes(StandardCharsets.US_ASCII);
        return CityHash128.hash(b, 0, b.length);
    }

    @Test
    void moscow() {
        assertThat(hash("Moscow"))
                .isEqualTo(new Hash128(3377444358654451565L, 2499202049363713365L));
    }

    /** 1000 vectors from go-faster/city, lengths 1..1000 bytes, so every code path is hit. */
    @Test
    void goldenVectors() throws IOException {
        List<String> lines =
                Files.readAllLines(
                        Golden.dir("cityhash").resolve("ch128.csv"), StandardCharsets.US_ASCII);
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",");
            Hash128 expected =
                    new Hash128(Long.parseUnsignedLong(f[1], 16), Long.parseUnsignedLong(f[2], 16));
            Hash128 actual = hash(f[0]);
            if (!actual.equals(expected)) {
                mismatches.add(
                        "len " + f[0].length() + ": expected " + expected + ", got " + actual);
            }
            checked++;
        }
        assertThat(checked).isEqualTo(1000);
        assertThat(mismatches).isEmpty();
    }

    @Property(tries = 200)
    void hashesOnlyTheSlice(
            @ForAll @Size(max = 700) byte[] data,
            @ForAll @IntRange(max = 40) int before,
            @ForAll @IntRange(max = 40) int after) {
        byte[] padded = new byte[before + data.length + after];
        Arrays.fill(padded, (byte) 0x5A);
        System.arraycopy(data, 0, padded, before, data.length);
        assertThat(CityHash128.hash(padded, before, data.length))
                .isEqualTo(CityHash128.hash(data, 0, data.length));
    }

    @Test
    void rejectsOutOfBoundsSlice() {
        assertThatThrownBy(() -> CityHash128.hash(new byte[10], 5, 6))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
