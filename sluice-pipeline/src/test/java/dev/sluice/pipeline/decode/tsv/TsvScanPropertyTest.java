package dev.sluice.pipeline.decode.tsv;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.ByteRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class TsvScanPropertyTest {

    /** The word-at-a-time scan finds what a byte loop finds, at any offset and length. */
    @Property
    void findsTheFirstTabOrBackslash(
            @ForAll @Size(max = 64) byte @ByteRange(min = 8, max = 96) [] bytes,
            @ForAll @IntRange(max = 64) int from) {
        int start = Math.min(from, bytes.length);
        int expected = bytes.length;
        for (int i = start; i < bytes.length; i++) {
            if (bytes[i] == '\t' || bytes[i] == '\\') {
                expected = i;
                break;
            }
        }
        assertThat(TsvScan.tabOrBackslash(bytes, start, bytes.length)).isEqualTo(expected);
    }
}
