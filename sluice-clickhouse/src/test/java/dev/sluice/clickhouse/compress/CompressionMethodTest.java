package dev.sluice.clickhouse.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import org.junit.jupiter.api.Test;

class CompressionMethodTest {

    @Test
    void methodBytesMatchClickHouse() {
        assertThat(CompressionMethod.NONE.methodByte()).isEqualTo(0x02);
        assertThat(CompressionMethod.LZ4.methodByte()).isEqualTo(0x82);
        assertThat(CompressionMethod.ZSTD.methodByte()).isEqualTo(0x90);
        for (CompressionMethod m : CompressionMethod.values()) {
            assertThat(CompressionMethod.fromByte(m.methodByte())).isSameAs(m);
            assertThat(CompressionMethod.fromByte((byte) m.methodByte())).isSameAs(m);
        }
    }

    @Test
    void unknownByteNamesItInHex() {
        assertThatThrownBy(() -> CompressionMethod.fromByte(0x91))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("0x91");
    }

    @Test
    void parsesNamesInAnyCase() {
        assertThat(CompressionMethod.parse("none")).isEqualTo(CompressionMethod.NONE);
        assertThat(CompressionMethod.parse("LZ4")).isEqualTo(CompressionMethod.LZ4);
        assertThat(CompressionMethod.parse("Zstd")).isEqualTo(CompressionMethod.ZSTD);
    }

    @Test
    void unknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> CompressionMethod.parse("lz4hc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'lz4hc'")
                .hasMessageContaining("none, lz4, zstd");
    }
}
