package dev.sluice.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TailRecordingInputStreamTest {

    /** Reads {@code consumed} bytes in random-sized pieces (single bytes and skips included). */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 99, 100, 101, 250, 1000, 4097})
    void tailIsTheLastBytesReadThenTheRest(int consumed) throws IOException {
        byte[] data = new byte[5000];
        new Random(consumed).nextBytes(data);
        Random sizes = new Random(42);
        TailRecordingInputStream in =
                new TailRecordingInputStream(new ByteArrayInputStream(data), 100);
        int pos = 0;
        while (pos < consumed) {
            int want = Math.min(consumed - pos, 1 + sizes.nextInt(300));
            switch (sizes.nextInt(3)) {
                case 0 -> {
                    in.read();
                    want = 1;
                }
                case 1 -> assertThat(in.skip(want)).isEqualTo(want);
                default -> assertThat(in.readNBytes(new byte[want], 0, want)).isEqualTo(want);
            }
            pos += want;
        }
        int kept = Math.min(consumed, 100);
        int more = 50;
        byte[] expected = Arrays.copyOfRange(data, consumed - kept, consumed + more);
        assertThat(in.tailAndRest(more)).isEqualTo(expected);
    }
}
