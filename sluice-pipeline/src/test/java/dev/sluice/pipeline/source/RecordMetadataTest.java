package dev.sluice.pipeline.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Keys handed over as buffers (views of a fetch) land in the entry as keys from arrays do. */
class RecordMetadataTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String key(RecordMetadata m, int i) {
        return m.keyStart[i] < 0
                ? null
                : new String(
                        Arrays.copyOfRange(m.bytes, m.keyStart[i], m.keyEnd[i]),
                        StandardCharsets.UTF_8);
    }

    @Test
    void aKeyBufferIsCopiedFromItsPositionToItsLimitAndLeftAsItWas() {
        // a view into the middle of a larger buffer, as the Kafka client hands a key over
        ByteBuffer fetched = ByteBuffer.wrap(utf8("xxxuser-1\u00e9yyy"));
        ByteBuffer key = fetched.slice(3, utf8("user-1\u00e9").length);
        key.position(0);
        RecordMetadata m = new RecordMetadata();
        m.recordFromBuffer(0, key, 1_764_741_600_123L);
        m.header(0, "trace", utf8("t-1"));
        m.recordFromBuffer(1, null, 1_764_741_601_000L);
        m.record(2, utf8("k2"), 7);

        assertThat(key(m, 0)).isEqualTo("user-1\u00e9");
        assertThat(key.position()).isZero();
        assertThat(key.remaining()).isEqualTo(utf8("user-1\u00e9").length);
        assertThat(m.timestamp[0]).isEqualTo(1_764_741_600_123L);
        assertThat(m.headerCount[0]).isEqualTo(1);
        assertThat(m.header(0, utf8("trace"))).isGreaterThanOrEqualTo(0);
        assertThat(key(m, 1)).isNull();
        assertThat(m.headerCount[1]).isZero();
        assertThat(m.timestamp[1]).isEqualTo(1_764_741_601_000L);
        assertThat(key(m, 2)).isEqualTo("k2");
    }

    @Test
    void manyAndLongKeysGrowTheEntriesAndTheirBuffer() {
        RecordMetadata m = new RecordMetadata();
        byte[] longKey = new byte[10_000];
        Arrays.fill(longKey, (byte) 'z');
        for (int i = 0; i < 1_000; i++) {
            ByteBuffer k = i % 100 == 7 ? ByteBuffer.wrap(longKey) : ByteBuffer.wrap(utf8("k" + i));
            m.recordFromBuffer(i, k, i);
        }
        for (int i = 0; i < 1_000; i++) {
            assertThat(key(m, i)).isEqualTo(i % 100 == 7 ? "z".repeat(10_000) : "k" + i);
            assertThat(m.timestamp[i]).isEqualTo(i);
        }
        m.clear();
        m.recordFromBuffer(0, ByteBuffer.wrap(utf8("again")), 1);
        assertThat(key(m, 0)).isEqualTo("again");
        assertThat(m.keyStart[0]).isZero();
    }
}
