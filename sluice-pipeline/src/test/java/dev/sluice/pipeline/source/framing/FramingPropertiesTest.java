package dev.sluice.pipeline.source.framing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.source.Rec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Framing does not depend on how the input is cut: random records — CSV with quoted delimiters,
 * quotes and newlines; lines longer than the limit — split into arbitrary pieces and read with
 * arbitrary chunk sizes give exactly the records and positions they were built from.
 */
class FramingPropertiesTest {

    /** A CSV record as written, and whether it ends with CRLF. */
    record CsvRecord(String text, boolean crlf) {}

    @Provide
    Arbitrary<List<CsvRecord>> csvRecords() {
        Arbitrary<String> unquoted =
                Arbitraries.strings()
                        .withChars("ab1 \"")
                        .ofMaxLength(6)
                        .filter(s -> !s.startsWith("\""));
        Arbitrary<String> quoted =
                Arbitraries.strings()
                        .withChars("ab,\n\r\"")
                        .ofMaxLength(8)
                        .map(s -> "\"" + s.replace("\"", "\"\"") + "\"");
        Arbitrary<String> field = Arbitraries.oneOf(unquoted, quoted);
        Arbitrary<String> record =
                field.list()
                        .ofMinSize(1)
                        .ofMaxSize(4)
                        .map(fs -> String.join(",", fs))
                        .filter(t -> !t.isEmpty() && !t.endsWith("\r"));
        return Combinators.combine(record, Arbitraries.of(true, false))
                .as(CsvRecord::new)
                .list()
                .ofMaxSize(12);
    }

    @Property(tries = 300)
    void csvRecordsComeOutAsWrittenHoweverTheInputIsCut(
            @ForAll("csvRecords") List<CsvRecord> records,
            @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 1, max = 40) Integer> pieces,
            @ForAll @IntRange(min = 1, max = 64) int chunk,
            @ForAll boolean finalNewline) {
        StringBuilder text = new StringBuilder();
        List<Rec> expected = new ArrayList<>();
        long line = 1;
        for (int i = 0; i < records.size(); i++) {
            CsvRecord r = records.get(i);
            expected.add(new Rec("p", utf8(text), line, r.text(), null));
            text.append(r.text());
            line += 1 + r.text().chars().filter(c -> c == '\n').count();
            if (i < records.size() - 1 || finalNewline) {
                text.append(r.crlf() ? "\r\n" : "\n");
            }
        }
        List<Rec> actual = read(text.toString(), Framer.csv(','), 1 << 20, chunk, pieces);
        assertThat(actual).isEqualTo(expected);
    }

    @Property(tries = 300)
    void linesAndTooLongLinesComeOutTheSameHoweverTheInputIsCut(
            @ForAll @Size(max = 15) List<@IntRange(max = 60) Integer> lengths,
            @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 1, max = 50) Integer> pieces,
            @ForAll @IntRange(min = 1, max = 64) int chunk,
            @ForAll boolean crlf) {
        int max = 20;
        StringBuilder text = new StringBuilder();
        List<Rec> expected = new ArrayList<>();
        long line = 1;
        for (int length : lengths) {
            String content = "y".repeat(length);
            if (length > max) {
                expected.add(new Rec("p", text.length(), line, "y".repeat(max), "error"));
            } else if (length > 0) {
                expected.add(new Rec("p", text.length(), line, content, null));
            }
            text.append(content).append(crlf ? "\r\n" : "\n");
            line++;
        }
        List<Rec> actual =
                read(text.toString(), Framer.lines(), max, chunk, pieces).stream()
                        .map(
                                r ->
                                        r.error() == null
                                                ? r
                                                : new Rec(
                                                        r.partition(),
                                                        r.position(),
                                                        r.line(),
                                                        r.text(),
                                                        "error"))
                        .toList();
        assertThat(actual).isEqualTo(expected);
    }

    private static long utf8(CharSequence s) {
        return s.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    private static List<Rec> read(
            String text, Framer framer, int max, int chunk, List<Integer> pieces) {
        int[] p = pieces.stream().mapToInt(Integer::intValue).toArray();
        PiecewiseInput in =
                new PiecewiseInput(text.getBytes(StandardCharsets.UTF_8), p, false, true);
        return RecordReaderTest.readAll(new RecordReader("file", "p", in, framer, max, chunk), 3);
    }
}
