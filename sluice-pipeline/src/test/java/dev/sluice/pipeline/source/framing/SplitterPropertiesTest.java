package dev.sluice.pipeline.source.framing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The splitter cuts exactly where the framer ends records: on random CSV text (quoted fields with
 * delimiters, escaped quotes and newlines; stray quotes in unquoted fields; CRLF; empty lines; a
 * byte order mark; no final newline; an unclosed quote) and random lines, for random targets —
 * including targets exactly at record ends — each boundary is the first record start the framer
 * finds at or after its target and after the previous boundary.
 */
class SplitterPropertiesTest {

    @Provide
    Arbitrary<String> csvText() {
        Arbitrary<String> unquoted = Arbitraries.strings().withChars("ab1 \"\r").ofMaxLength(6);
        Arbitrary<String> quoted =
                Arbitraries.strings()
                        .withChars("ab;,\n\r\"")
                        .ofMaxLength(10)
                        .map(s -> "\"" + s.replace("\"", "\"\"") + "\"");
        Arbitrary<String> tail = Arbitraries.of("", "x", "\"");
        Arbitrary<String> field =
                Arbitraries.oneOf(unquoted, quoted, quoted.flatMap(q -> tail.map(t -> q + t)));
        Arbitrary<String> record =
                field.list().ofMinSize(1).ofMaxSize(4).map(fs -> String.join(",", fs));
        Arbitrary<String> ending = Arbitraries.of("\n", "\r\n", "\n\n", "");
        Arbitrary<String> line = record.flatMap(r -> ending.map(e -> r + e));
        return Arbitraries.oneOf(
                line.list().ofMaxSize(40).map(ls -> String.join("", ls)),
                line.list().ofMaxSize(40).map(ls -> "\uFEFF" + String.join("", ls)),
                line.list().ofMaxSize(20).map(ls -> String.join("", ls) + "\"open\nfield\n"));
    }

    @Provide
    Arbitrary<String> lineText() {
        Arbitrary<String> content = Arbitraries.strings().withChars("ab\t{}\r").ofMaxLength(30);
        Arbitrary<String> ending = Arbitraries.of("\n", "\r\n", "\n\n");
        return content.flatMap(c -> ending.map(e -> c + e))
                .list()
                .ofMaxSize(40)
                .flatMap(
                        ls ->
                                Arbitraries.of(true, false)
                                        .map(last -> String.join("", ls) + (last ? "tail" : "")));
    }

    @Property(tries = 400)
    void csvCutsWhereTheFramerEndsRecords(
            @ForAll("csvText") String text,
            @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 1000) Integer> permille,
            @ForAll boolean atRecordEnds,
            @ForAll @IntRange(min = 0, max = 3) int fromRecord)
            throws IOException {
        check(text, Framer.csv(','), Splitter.csv(','), permille, atRecordEnds, fromRecord);
    }

    @Property(tries = 200)
    void csvWithAnotherDelimiter(
            @ForAll("csvText") String text,
            @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 1000) Integer> permille,
            @ForAll boolean atRecordEnds)
            throws IOException {
        check(text, Framer.csv(';'), Splitter.csv(';'), permille, atRecordEnds, 0);
    }

    @Property(tries = 300)
    void linesCutAfterNewlines(
            @ForAll("lineText") String text,
            @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 1000) Integer> permille,
            @ForAll boolean atRecordEnds,
            @ForAll @IntRange(min = 0, max = 3) int fromRecord)
            throws IOException {
        check(text, Framer.lines(), Splitter.lines(), permille, atRecordEnds, fromRecord);
    }

    @Property(tries = 100)
    void newlinesAreCountedExactly(
            @ForAll("lineText") String text,
            @ForAll @IntRange(min = 0, max = 1000) int a,
            @ForAll @IntRange(min = 0, max = 1000) int b)
            throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long from = (long) bytes.length * Math.min(a, b) / 1000;
        long to = (long) bytes.length * Math.max(a, b) / 1000;
        long expected = 0;
        for (long i = from; i < to; i++) {
            expected += bytes[(int) i] == '\n' ? 1 : 0;
        }
        Path file = write(bytes);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(Splitter.newlines(ch, from, to)).isEqualTo(expected);
        } finally {
            Files.delete(file);
        }
    }

    private static void check(
            String text,
            Framer framer,
            Splitter splitter,
            List<Integer> permille,
            boolean atRecordEnds,
            int fromRecord)
            throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<Long> starts = recordStarts(bytes, framer);
        long from =
                fromRecord == 0 || starts.isEmpty()
                        ? 0
                        : starts.get((fromRecord - 1) % starts.size());
        long end = bytes.length;
        TreeSet<Long> targets = new TreeSet<>();
        for (int p : permille) {
            long t = from + 1 + (end - from) * p / 1000;
            if (atRecordEnds && !starts.isEmpty()) {
                t = starts.get((int) ((long) p * starts.size() / 1001)); // a record start exactly
            }
            if (t > from && t < end) {
                targets.add(t);
            }
        }
        long[] ts = targets.stream().mapToLong(Long::longValue).toArray();
        List<Long> expected = new ArrayList<>();
        long last = from;
        for (long t : ts) {
            long want = Math.max(t, last + 1);
            Long b = starts.stream().filter(s -> s >= want && s < end).findFirst().orElse(null);
            if (b == null) {
                break;
            }
            expected.add(b);
            last = b;
        }
        Path file = write(bytes);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long[] got = splitter.boundaries(ch, from, end, ts);
            assertThat(got)
                    .as("%s from %d, targets %s", escape(text), from, targets)
                    .containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
        } finally {
            Files.delete(file);
        }
    }

    /** Where the framer starts a record (after each record end), as the reader frames the text. */
    private static List<Long> recordStarts(byte[] bytes, Framer framer) {
        List<Long> starts = new ArrayList<>();
        int i =
                bytes.length >= 3
                                && bytes[0] == (byte) 0xEF
                                && bytes[1] == (byte) 0xBB
                                && bytes[2] == (byte) 0xBF
                        ? 3
                        : 0;
        while (i < bytes.length) {
            int e = framer.findEnd(bytes, i, bytes.length);
            if (e < 0) {
                break;
            }
            starts.add((long) e + 1);
            i = e + 1;
        }
        return starts;
    }

    private static Path write(byte[] bytes) throws IOException {
        Path file = Files.createTempFile("splitter", ".txt");
        Files.write(file, bytes);
        return file;
    }

    private static String escape(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }
}
