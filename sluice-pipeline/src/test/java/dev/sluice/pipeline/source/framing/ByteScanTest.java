package dev.sluice.pipeline.source.framing;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ByteScanTest {

    @Test
    void findsTheFirstMatchAtEveryOffsetOfAWord() {
        for (int at = 0; at < 20; at++) {
            byte[] a = new byte[20];
            a[at] = '\n';
            if (at + 3 < 20) {
                a[at + 3] = '\n';
            }
            assertThat(ByteScan.indexOf(a, 0, 20, (byte) '\n')).isEqualTo(at);
            assertThat(ByteScan.indexOf(a, 0, at, (byte) '\n')).isEqualTo(-1);
        }
    }

    @Test
    void highBytesAreNotMistakenForTheTarget() {
        byte[] a = {(byte) 0x8A, (byte) 0xFF, 0x0B, 0x09, (byte) 0x80, 0x7F, 0x01, 0x00, 0x0A};
        assertThat(ByteScan.indexOf(a, 0, a.length, (byte) '\n')).isEqualTo(8);
        assertThat(ByteScan.indexOf(a, 0, a.length, (byte) 0x80)).isEqualTo(4);
    }

    @Property
    void agreesWithAPlainLoop(
            @ForAll @Size(max = 100) byte[] a,
            @ForAll @IntRange(max = 100) int from,
            @ForAll byte target) {
        int start = Math.min(from, a.length);
        int expected = -1;
        for (int i = start; i < a.length; i++) {
            if (a[i] == target) {
                expected = i;
                break;
            }
        }
        assertThat(ByteScan.indexOf(a, start, a.length, target)).isEqualTo(expected);
    }
}
