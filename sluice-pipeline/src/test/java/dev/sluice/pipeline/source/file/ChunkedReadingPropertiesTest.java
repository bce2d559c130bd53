package dev.sluice.pipeline.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A file read in chunks by several readers gives exactly the records one reader gives — same
 * positions, same (absolute) line numbers, same error records — each in exactly one reader, every
 * reader's records one contiguous range in position order; with a header, every reader with a chunk
 * first gets the header. Random CSV (quoted newlines, CRLF, empty lines, no final newline, an
 * unclosed quote) and lines (too-long ones included), random split sizes and reader counts.
 */
class ChunkedReadingPropertiesTest {

    @Provide
    Arbitrary<String> csv() {
        Arbitrary<String> unquoted = Arbitraries.strings().withChars("ab1 \"").ofMaxLength(6);
        Arbitrary<String> quoted =
                Arbitraries.strings()
                        .withChars("ab,\n\r\"")
                        .ofMaxLength(10)
                        .map(s -> "\"" + s.replace("\"", "\"\"") + "\"");
        Arbitrary<String> record =
                Arbitraries.oneOf(unquoted, quoted)
                        .list()
                        .ofMinSize(1)
                        .ofMaxSize(4)
                        .map(fs -> String.join(",", fs));
        Arbitrary<String> ending = Arbitraries.of("\n", "\r\n", "\n\n", "\n");
        Arbitrary<String> body =
                record.flatMap(r -> ending.map(e -> r + e))
                        .list()
                        .ofMaxSize(60)
                        .map(ls -> String.join("", ls));
        return Arbitraries.oneOf(
                body,
                body.map(b -> b + "last,\"x\""),
                body.map(b -> b + "\"never closed\n"),
                body.map(b -> "\uFEFF" + b));
    }

    @Provide
    Arbitrary<String> lines() {
        Arbitrary<String> content = Arbitraries.strings().withChars("ab\t{}").ofMaxLength(30);
        Arbitrary<String> ending = Arbitraries.of("\n", "\r\n", "\n\n");
        return content.flatMap(c -> ending.map(e -> c + e))
                .list()
                .ofMaxSize(60)
                .map(ls -> String.join("", ls))
                .flatMap(b -> Arbitraries.of(b, b + "no final newline"));
    }

    @Property(tries = 200)
    void csvInChunksReadsAsOneReader(
            @ForAll("csv") String text,
            @ForAll @IntRange(min = 2, max = 5) int readers,
            @ForAll @IntRange(min = 1, max = 40) int splitBytes,
            @ForAll boolean header)
            throws Exception {
        check(text, Format.CSV, header, readers, splitBytes, 1 << 20);
    }

    @Property(tries = 200)
    void linesInChunksReadAsOneReader(
            @ForAll("lines") String text,
            @ForAll @IntRange(min = 2, max = 5) int readers,
            @ForAll @IntRange(min = 1, max = 40) int splitBytes,
            @ForAll boolean tsv,
            @ForAll boolean header,
            @ForAll @IntRange(min = 8, max = 40) int maxRecordBytes)
            throws Exception {
        check(
                text,
                tsv ? Format.TSV : Format.JSON,
                header && tsv,
                readers,
                splitBytes,
                maxRecordBytes);
    }

    private static void check(
            String text,
            Format format,
            boolean header,
            int readers,
            int splitBytes,
            int maxRecordBytes)
            throws Exception {
        Path dir = Files.createTempDirectory("chunked");
        try {
            Path file = dir.resolve("in.txt");
            Files.write(file, text.getBytes(StandardCharsets.UTF_8));
            DecodeSpec decode = Inputs.decode(format, header);
            List<Rec> whole = read(file, decode, 1, splitBytes, maxRecordBytes).get(0);
            List<List<Rec>> parts = read(file, decode, readers, splitBytes, maxRecordBytes);
            List<Rec> union = new ArrayList<>();
            long last = -1;
            for (List<Rec> part : parts) {
                List<Rec> records = new ArrayList<>(part);
                if (header && !records.isEmpty() && last >= 0) {
                    // A reader of a later chunk reads the header first, for its decoder.
                    assertThat(records.get(0)).isEqualTo(whole.get(0));
                    records.remove(0);
                }
                for (Rec r : records) {
                    assertThat(r.position())
                            .as("positions ascend across readers")
                            .isGreaterThan(last);
                    last = r.position();
                }
                union.addAll(records);
            }
            union.sort(Comparator.comparingLong(Rec::position));
            assertThat(union).isEqualTo(whole);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private static List<List<Rec>> read(
            Path file, DecodeSpec decode, int readers, int splitBytes, int maxRecordBytes)
            throws Exception {
        List<Source> sources =
                SourceFactory.files(
                        new PipelineSpec.FileSource(
                                List.of(file.toString()), false, maxRecordBytes),
                        decode,
                        readers,
                        LocalCheckpoints.inMemory(),
                        Clock.SYSTEM,
                        splitBytes);
        List<List<Rec>> out = new ArrayList<>();
        for (Source s : sources) {
            try (s) {
                out.add(Rec.drain(s, 3, 10_000));
            }
        }
        return out;
    }

    static String show(String s) throws IOException {
        return s.replace("\n", "\\n");
    }
}
