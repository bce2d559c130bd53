package dev.sluice.pipeline.source.framing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Rec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordReaderTest {

    static List<Rec> readAll(RecordReader reader, int maxRecords) {
        List<Rec> out = new ArrayList<>();
        PolledRecords b = new PolledRecords();
        for (int i = 0; i < 100_000; i++) {
            reader.read(b, maxRecords, 0);
            out.addAll(Rec.of(b));
            if (b.partitionEnd) {
                return out;
            }
        }
        throw new AssertionError("no end");
    }

    static RecordReader reader(ChunkInput in, Framer framer, int maxRecordBytes, int chunk) {
        return new RecordReader("file", "p", in, framer, maxRecordBytes, chunk);
    }

    static List<Rec> lines(String text, int chunk, int... pieces) {
        return readAll(
                reader(PiecewiseInput.of(bytes(text), pieces), Framer.lines(), 1 << 20, chunk),
                1000);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void linesWithPositionsAndLineNumbers() {
        assertThat(lines("a\nbb\nccc\n", 64))
                .containsExactly(
                        new Rec("p", 0, 1, "a", null),
                        new Rec("p", 2, 2, "bb", null),
                        new Rec("p", 5, 3, "ccc", null));
    }

    @Test
    void recordsSplitAcrossEveryChunkBoundaryComeOutWhole() {
        String text = "{\"a\":1}\n{\"b\":22}\n{\"c\":333}\n";
        List<Rec> whole = lines(text, 1 << 16);
        for (int piece = 1; piece <= text.length(); piece++) {
            assertThat(lines(text, 4, piece)).as("pieces of %d", piece).isEqualTo(whole);
        }
    }

    @Test
    void crlfIsStrippedAndAMissingLastNewlineIsFine() {
        assertThat(lines("a\r\nb\r\nc", 64))
                .extracting(Rec::text, Rec::position)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", 0L),
                        org.assertj.core.groups.Tuple.tuple("b", 3L),
                        org.assertj.core.groups.Tuple.tuple("c", 6L));
    }

    @Test
    void emptyInputEndsWithNoRecordsAtPositionZero() {
        RecordReader r = reader(PiecewiseInput.of(new byte[0]), Framer.lines(), 100, 64);
        PolledRecords b = new PolledRecords();
        assertThat(r.read(b, 10, 0)).isZero();
        assertThat(b.partitionEnd).isTrue();
        assertThat(b.endPosition).isZero();
        assertThat(r.finished()).isTrue();
    }

    @Test
    void blankLinesAreNotRecordsButCountAsLines() {
        assertThat(lines("\n\r\na\n\n\nb\n\n", 64))
                .containsExactly(new Rec("p", 3, 3, "a", null), new Rec("p", 7, 6, "b", null));
    }

    @Test
    void theEndPositionCoversTrailingBlankLines() {
        RecordReader r = reader(PiecewiseInput.of(bytes("a\n\n\n")), Framer.lines(), 100, 64);
        PolledRecords b = new PolledRecords();
        assertThat(r.read(b, 10, 0)).isEqualTo(1);
        assertThat(b.endPosition).isEqualTo(4);
        assertThat(r.read(b, 10, 0)).isZero();
        assertThat(b.partitionEnd).isTrue();
        assertThat(b.endPosition).isEqualTo(4);
    }

    @Test
    void aByteOrderMarkAtTheStartIsSkipped() {
        assertThat(lines("\uFEFFa,b\n1,2\n", 64, 1))
                .containsExactly(new Rec("p", 3, 1, "a,b", null), new Rec("p", 7, 2, "1,2", null));
    }

    @Test
    void csvQuotedFieldsMayHoldNewlinesDelimitersAndQuotes() {
        String text = "id,text\r\n1,\"two\nlines\"\r\n2,\"say \"\"hi\"\"\n, ok\"\n3,x\"y\n";
        RecordReader r = reader(PiecewiseInput.of(bytes(text), 3), Framer.csv(','), 1 << 20, 8);
        assertThat(readAll(r, 100))
                .containsExactly(
                        new Rec("p", 0, 1, "id,text", null),
                        new Rec("p", 9, 2, "1,\"two\nlines\"", null),
                        new Rec("p", 24, 4, "2,\"say \"\"hi\"\"\n, ok\"", null),
                        new Rec("p", 44, 6, "3,x\"y", null));
    }

    @Test
    void aQuoteInsideAnUnquotedValueDoesNotOpenAField() {
        RecordReader r = reader(PiecewiseInput.of(bytes("a\"b,c\nd\n")), Framer.csv(','), 100, 64);
        assertThat(readAll(r, 100)).extracting(Rec::text).containsExactly("a\"b,c", "d");
    }

    @Test
    void anUnclosedQuoteAtTheEndIsAnErrorRecord() {
        RecordReader r =
                reader(PiecewiseInput.of(bytes("1,ok\n2,\"open\nrest")), Framer.csv(','), 100, 64);
        List<Rec> recs = readAll(r, 100);
        assertThat(recs).hasSize(2);
        assertThat(recs.get(1).position()).isEqualTo(5);
        assertThat(recs.get(1).error()).contains("quoted field");
        assertThat(recs.get(1).text()).isEqualTo("2,\"open\nrest");
    }

    @Test
    void anOverlongRecordIsAnErrorAtItsPositionAndReadingGoesOn() {
        String big = "x".repeat(5000);
        String text = "ok1\n" + big + "\nok2\n";
        for (int chunk : new int[] {16, 100, 1 << 16}) {
            RecordReader r = reader(PiecewiseInput.of(bytes(text), 7), Framer.lines(), 100, chunk);
            List<Rec> recs = readAll(r, 1000);
            assertThat(recs).as("chunk %d", chunk).hasSize(3);
            assertThat(recs.get(0)).isEqualTo(new Rec("p", 0, 1, "ok1", null));
            Rec bad = recs.get(1);
            assertThat(bad.position()).isEqualTo(4);
            assertThat(bad.line()).isEqualTo(2);
            assertThat(bad.error())
                    .contains("record of 5000 bytes")
                    .contains("max_record_bytes (100)");
            assertThat(bad.text()).isEqualTo("x".repeat(100));
            assertThat(recs.get(2)).isEqualTo(new Rec("p", 5005, 3, "ok2", null));
        }
    }

    @Test
    void aRecordOfExactlyTheMaximumWithCrlfIsFineAtAnyChunking() {
        String text = "0123456789\r\nabc\n";
        for (int piece = 1; piece <= text.length(); piece++) {
            RecordReader r = reader(PiecewiseInput.of(bytes(text), piece), Framer.lines(), 10, 4);
            assertThat(readAll(r, 100))
                    .as("pieces of %d", piece)
                    .containsExactly(
                            new Rec("p", 0, 1, "0123456789", null),
                            new Rec("p", 12, 2, "abc", null));
        }
    }

    @Test
    void memoryStaysBoundedWhileSkippingAHugeRecord() {
        byte[] data = new byte[10 << 20];
        java.util.Arrays.fill(data, (byte) 'x');
        data[data.length - 1] = '\n';
        RecordReader r = reader(PiecewiseInput.of(data, 1 << 16), Framer.lines(), 4096, 1 << 16);
        PolledRecords b = new PolledRecords();
        List<Rec> recs = new ArrayList<>();
        while (!b.partitionEnd) {
            r.read(b, 10, 0);
            recs.addAll(Rec.of(b));
            assertThat(b.data.length).isLessThan(1 << 20);
        }
        assertThat(recs).hasSize(1);
        assertThat(recs.get(0).error()).contains("record of " + (data.length - 1) + " bytes");
    }

    @Test
    void theBufferStaysNearTwoChunksWhenBatchesAreSmall() {
        String text = "abcdefgh\n".repeat(10_000);
        RecordReader r = reader(PiecewiseInput.of(bytes(text)), Framer.lines(), 100, 64);
        PolledRecords b = new PolledRecords();
        b.data = new byte[16];
        int records = 0;
        while (!b.partitionEnd) {
            r.read(b, 3, 0);
            records += b.count;
            assertThat(b.data.length).isLessThan(512);
        }
        assertThat(records).isEqualTo(10_000);
    }

    @Test
    void alternatingBatchesGetTheSameRecordsAsOne() {
        String text = "{\"a\":1}\n{\"b\":22}\nxx\r\n\n{\"c\":333}\nlast";
        List<Rec> one =
                readAll(reader(PiecewiseInput.of(bytes(text), 5), Framer.lines(), 100, 8), 2);
        RecordReader r = reader(PiecewiseInput.of(bytes(text), 5), Framer.lines(), 100, 8);
        PolledRecords[] batches = {new PolledRecords(), new PolledRecords()};
        List<Rec> alternating = new ArrayList<>();
        for (int i = 0; !batches[(i + 1) % 2].partitionEnd; i++) {
            r.read(batches[i % 2], 2, 0);
            alternating.addAll(Rec.of(batches[i % 2]));
        }
        assertThat(alternating).isEqualTo(one).hasSize(5);
    }

    @Test
    void aTruncatedInputDeliversWholeRecordsThenThePartialOneAsAnError() {
        byte[] data = bytes("a\nb\npartial");
        RecordReader r =
                reader(
                        new PiecewiseInput(data, new int[] {3}, true, false),
                        Framer.lines(),
                        100,
                        64);
        List<Rec> recs = readAll(r, 100);
        assertThat(recs).hasSize(3);
        assertThat(recs.subList(0, 2)).extracting(Rec::text).containsExactly("a", "b");
        assertThat(recs.get(2).position()).isEqualTo(4);
        assertThat(recs.get(2).text()).isEqualTo("partial");
        assertThat(recs.get(2).error()).startsWith("truncated input: ");
    }

    @Test
    void aTruncationAtARecordBoundaryIsStillReported() {
        RecordReader r =
                reader(
                        new PiecewiseInput(bytes("a\nb\n"), new int[] {64}, true, false),
                        Framer.lines(),
                        100,
                        64);
        List<Rec> recs = readAll(r, 100);
        assertThat(recs).hasSize(3);
        assertThat(recs.get(2).position()).isEqualTo(4);
        assertThat(recs.get(2).text()).isEmpty();
        assertThat(recs.get(2).error()).startsWith("truncated input");
    }

    @Test
    void maxRecordsLimitsABatchAndTheRestComesNext() {
        RecordReader r =
                reader(PiecewiseInput.of(bytes("1\n2\n3\n4\n5\n")), Framer.lines(), 100, 64);
        PolledRecords b = new PolledRecords();
        assertThat(r.read(b, 2, 0)).isEqualTo(2);
        assertThat(b.partitionStart).isTrue();
        assertThat(b.endPosition).isEqualTo(4);
        assertThat(r.read(b, 2, 0)).isEqualTo(2);
        assertThat(b.partitionStart).isFalse();
        assertThat(b.position[0]).isEqualTo(4);
        assertThat(r.read(b, 2, 0)).isEqualTo(1);
        assertThat(b.endPosition).isEqualTo(10);
        assertThat(r.read(b, 2, 0)).isZero();
        assertThat(b.partitionEnd).isTrue();
        assertThat(b.endPosition).isEqualTo(10);
    }

    @Test
    void noDataYetReturnsNothingAndKeepsThePartialLine() {
        RecordReader r =
                reader(
                        new PiecewiseInput(bytes("ab\ncd\nef"), new int[] {4}, false, true),
                        Framer.lines(),
                        100,
                        64);
        PolledRecords b = new PolledRecords();
        assertThat(r.read(b, 10, 0)).isEqualTo(1);
        assertThat(Rec.of(b)).extracting(Rec::text).containsExactly("ab");
        assertThat(r.read(b, 10, 0)).isZero();
        assertThat(b.partitionEnd).isFalse();
        assertThat(r.hasPartialRecord()).isTrue();
        assertThat(r.read(b, 10, 0)).isEqualTo(1);
        assertThat(Rec.of(b)).extracting(Rec::text).containsExactly("cd");
    }

    @Test
    void skipToResumesAtAPositionWithUnknownLineNumbers() {
        RecordReader r =
                reader(PiecewiseInput.of(bytes("h\n1\n22\n333\n")), Framer.lines(), 100, 64);
        r.skipTo(4);
        List<Rec> recs = readAll(r, 100);
        assertThat(recs)
                .containsExactly(new Rec("p", 4, 0, "22", null), new Rec("p", 7, 0, "333", null));
    }

    @Test
    void skipToAfterAHeaderDropsWhatWasAlreadyBuffered() {
        RecordReader r =
                reader(PiecewiseInput.of(bytes("h\n1\n22\n333\n")), Framer.lines(), 100, 64);
        PolledRecords b = new PolledRecords();
        assertThat(r.read(b, 1, 0)).isEqualTo(1);
        assertThat(b.partitionStart).isTrue();
        r.skipTo(7);
        assertThat(readAll(r, 100)).containsExactly(new Rec("p", 7, 0, "333", null));
    }

    @Test
    void skippingPastTheEndIsAnErrorAtTheResumePosition() {
        RecordReader r = reader(PiecewiseInput.of(bytes("a\nb\n")), Framer.lines(), 100, 64);
        r.skipTo(50);
        List<Rec> recs = readAll(r, 100);
        assertThat(recs).hasSize(1);
        assertThat(recs.get(0).position()).isEqualTo(50);
        assertThat(recs.get(0).error())
                .contains("ends at byte 4")
                .contains("truncated or replaced");
    }

    @Test
    void skipToCannotGoBack() {
        RecordReader r = reader(PiecewiseInput.of(bytes("a\nb\n")), Framer.lines(), 100, 64);
        r.skipTo(2);
        assertThatThrownBy(() -> r.skipTo(1)).isInstanceOf(IllegalStateException.class);
    }
}
