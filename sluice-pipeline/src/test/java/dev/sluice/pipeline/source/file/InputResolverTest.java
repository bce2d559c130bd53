package dev.sluice.pipeline.source.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputResolverTest {
    @TempDir Path dir;

    private List<String> resolve(boolean allowMissing, String... patterns) throws Exception {
        return new InputResolver(List.of(patterns))
                .resolve(allowMissing).stream()
                        .map(f -> dir.toAbsolutePath().relativize(f.path()).toString())
                        .toList();
    }

    private void touch(String... names) throws Exception {
        for (String n : names) {
            Path p = dir.resolve(n);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "x\n");
        }
    }

    @Test
    void aDirectoryIsItsVisibleFilesSortedNotItsSubdirectories() throws Exception {
        touch("b.csv", "a.csv", "c.csv.gz", ".hidden.csv", "sub/d.csv");
        assertThat(resolve(false, dir.toString())).containsExactly("a.csv", "b.csv", "c.csv.gz");
    }

    @Test
    void aGlobIsEveryMatchSortedByPath() throws Exception {
        touch("2024-01-02.tsv", "2024-01-01.tsv", "2024-01-01.csv", "x/2024-01-03.tsv");
        assertThat(resolve(false, dir + "/*.tsv"))
                .containsExactly("2024-01-01.tsv", "2024-01-02.tsv");
        assertThat(resolve(false, dir + "/2024-01-0[12].*"))
                .containsExactly("2024-01-01.csv", "2024-01-01.tsv", "2024-01-02.tsv");
    }

    @Test
    void doubleStarCrossesDirectoriesAndMatchesNoneToo() throws Exception {
        touch("a.ndjson", "x/b.ndjson", "x/y/c.ndjson", "x/y/c.csv");
        assertThat(resolve(false, dir + "/**/*.ndjson"))
                .containsExactly("a.ndjson", "x/b.ndjson", "x/y/c.ndjson");
        assertThat(resolve(false, dir + "/x/*/*.ndjson")).containsExactly("x/y/c.ndjson");
    }

    @Test
    void inputsKeepTheirOrderAndAFileNamedTwiceIsReadOnce() throws Exception {
        touch("a.csv", "b.csv", "c.csv");
        assertThat(resolve(false, dir + "/c.csv", dir + "/*.csv", dir + "/./a.csv"))
                .containsExactly("c.csv", "a.csv", "b.csv");
    }

    @Test
    void relativeGlobsResolveAgainstTheWorkingDirectory() throws Exception {
        List<InputFile> files =
                new InputResolver(
                                List.of("src/test/java/dev/sluice/pipeline/source/file/*Test.java"))
                        .resolve(false);
        assertThat(files).isNotEmpty();
        assertThat(files).allMatch(f -> f.path().isAbsolute() && f.name().endsWith("Test.java"));
        assertThat(new InputResolver(List.of("*.xml")).resolve(false))
                .extracting(f -> f.path().getFileName().toString())
                .containsExactly("pom.xml");
    }

    @Test
    void somethingThatMatchesNothingIsAnErrorUnlessFollowing() throws Exception {
        touch("a.csv");
        assertThatThrownBy(() -> resolve(false, dir + "/*.tsv"))
                .hasMessageContaining("no file matches");
        assertThatThrownBy(() -> resolve(false, dir + "/missing.csv"))
                .hasMessageContaining("missing.csv");
        assertThatThrownBy(() -> resolve(false, dir + "/nodir/*.csv"))
                .hasMessageContaining("no file matches");
        assertThat(resolve(true, dir + "/*.tsv", dir + "/missing.csv")).isEmpty();
    }

    @Test
    void stdinCannotBeMixedWithFiles() {
        assertThatThrownBy(() -> resolve(false, "-")).hasMessageContaining("stdin");
    }

    @Test
    void formatsAndCompressionComeFromTheExtension() {
        assertThat(InputFormats.detect("x/a.ndjson.gz"))
                .isEqualTo(dev.sluice.pipeline.spec.PipelineSpec.Format.JSON);
        assertThat(InputFormats.detect("a.JSONL"))
                .isEqualTo(dev.sluice.pipeline.spec.PipelineSpec.Format.JSON);
        assertThat(InputFormats.detect("a.csv.zst"))
                .isEqualTo(dev.sluice.pipeline.spec.PipelineSpec.Format.CSV);
        assertThat(InputFormats.detect("/d/*.tsv"))
                .isEqualTo(dev.sluice.pipeline.spec.PipelineSpec.Format.TSV);
        assertThat(InputFormats.detect("a.txt")).isNull();
        assertThat(Compression.of("a.csv.GZ")).isEqualTo(Compression.GZIP);
        assertThat(Compression.of("a.zstd")).isEqualTo(Compression.ZSTD);
        assertThat(Compression.of("a.csv")).isEqualTo(Compression.NONE);
        assertThatThrownBy(() -> InputFormats.detect(List.of("a.csv", "b.tsv")))
                .hasMessageContaining("the inputs mix formats: csv ('a.csv') and tsv ('b.tsv')");
        assertThatThrownBy(() -> InputFormats.detect(List.of("-"))).hasMessageContaining("stdin");
    }

    @Test
    void aGlobOrDirectoryIsJudgedByTheFilesItMatchesEachByItsOwnName() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.write(data.resolve("part1.csv.gz"), new byte[0]);
        Files.write(data.resolve("part2.csv.zst"), new byte[0]);
        Files.write(data.resolve(".hidden"), new byte[0]); // not in the directory's inputs
        assertThat(InputFormats.detect(List.of(data + "/*.csv*"))).isEqualTo(Format.CSV);
        assertThat(InputFormats.detect(List.of(data.toString()))).isEqualTo(Format.CSV);
        assertThat(InputFormats.detect(List.of(data + "/part*", dir + "/x.csv")))
                .isEqualTo(Format.CSV);

        Files.write(data.resolve("part3.tsv"), new byte[0]);
        assertThatThrownBy(() -> InputFormats.detect(List.of(data.toString())))
                .hasMessageContaining("the inputs mix formats: csv ('")
                .hasMessageContaining("part1.csv.gz') and tsv ('")
                .hasMessageContaining("part3.tsv')");

        Files.delete(data.resolve("part3.tsv"));
        Files.delete(data.resolve(".hidden")); // a glob's * matches it: it would be named first
        Files.write(data.resolve("README"), new byte[0]);
        assertThatThrownBy(() -> InputFormats.detect(List.of(data + "/*")))
                .hasMessageContaining("cannot tell the input format of '")
                .hasMessageContaining("README' (matched by '" + data + "/*')")
                .hasMessageContaining("name the format");

        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> InputFormats.detect(List.of(empty.toString())))
                .hasMessageContaining("matches no file yet");
    }
}
