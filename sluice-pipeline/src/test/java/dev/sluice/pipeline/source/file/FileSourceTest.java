package dev.sluice.pipeline.source.file;

import static dev.sluice.pipeline.source.file.Inputs.decode;
import static dev.sluice.pipeline.source.file.Inputs.lines;
import static dev.sluice.pipeline.source.file.Inputs.source;
import static dev.sluice.pipeline.source.file.Inputs.sources;
import static dev.sluice.pipeline.source.file.Inputs.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileSourceTest {
    @TempDir Path dir;

    @Test
    void readsFilesInOrderEachAPartitionNamedByItsAbsolutePath() throws Exception {
        Path a = write(dir.resolve("a.ndjson"), "{\"a\":1}\n{\"a\":2}\n");
        Path b = write(dir.resolve("b.ndjson"), "{\"b\":1}");
        List<Source> s =
                sources(
                        List.of(a.toString(), b.toString()),
                        decode(Format.JSON, false),
                        1 << 20,
                        1,
                        LocalCheckpoints.inMemory());
        assertThat(Rec.drain(s.get(0), 100, 10))
                .containsExactly(
                        new Rec(a.toAbsolutePath().toString(), 0, 1, "{\"a\":1}", null),
                        new Rec(a.toAbsolutePath().toString(), 8, 2, "{\"a\":2}", null),
                        new Rec(b.toAbsolutePath().toString(), 0, 1, "{\"b\":1}", null));
        assertThat(s.get(0).bytesRead()).isEqualTo(s.get(0).bytesTotal()).isEqualTo(23);
    }

    @Test
    void batchesFlagTheStartAndEndOfEachFile() throws Exception {
        Path a = write(dir.resolve("a.tsv"), "1\tx\n2\ty\n");
        try (Source s = source(a, decode(Format.TSV, false), LocalCheckpoints.inMemory())) {
            PolledRecords b = new PolledRecords();
            assertThat(s.poll(b, 100, 0)).isEqualTo(2);
            assertThat(b.partitionStart).isTrue();
            assertThat(b.source).isEqualTo("file");
            assertThat(s.poll(b, 100, 0)).isZero();
            assertThat(b.partitionEnd).isTrue();
            assertThat(b.endPosition).isEqualTo(8);
            assertThat(s.poll(b, 100, 0)).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"data.ndjson", "data.ndjson.gz", "data.ndjson.zst"})
    void compressedFilesGiveTheSameRecordsAndPositionsAsPlainOnes(String name) throws Exception {
        String content = lines(0, 20_000);
        Path plain = write(dir.resolve("plain.ndjson"), content);
        Path file = write(dir.resolve(name), content);
        List<Rec> expected = read(plain);
        try (Source s = source(file, decode(Format.JSON, false), LocalCheckpoints.inMemory())) {
            List<Rec> actual = Rec.drain(s, 1000, 10_000);
            assertThat(actual).hasSize(20_000);
            assertThat(actual.stream().map(Rec::bare).toList())
                    .isEqualTo(expected.stream().map(Rec::bare).toList());
            assertThat(s.bytesRead()).isEqualTo(Files.size(file));
            assertThat(s.bytesTotal()).isEqualTo(Files.size(file));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty.csv", "empty.csv.gz", "empty.csv.zst"})
    void anEmptyFileEndsWithoutRecords(String name) throws Exception {
        Path file = write(dir.resolve(name), "");
        try (Source s = source(file, decode(Format.CSV, true), LocalCheckpoints.inMemory())) {
            PolledRecords b = new PolledRecords();
            assertThat(s.poll(b, 100, 0)).isZero();
            assertThat(b.partitionEnd).isTrue();
            assertThat(b.endPosition).isZero();
            assertThat(s.poll(b, 100, 0)).isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cut.ndjson.gz", "cut.ndjson.zst"})
    void aTruncatedCompressedFileDeliversEveryWholeRecordThenAPositionedError(String name)
            throws Exception {
        String content = lines(0, 50_000);
        Path file = write(dir.resolve(name), content);
        Inputs.truncate(file, 0.5);
        List<Rec> recs;
        try (Source s = source(file, decode(Format.JSON, false), LocalCheckpoints.inMemory())) {
            recs = Rec.drain(s, 1000, 10_000);
        }
        Rec last = recs.get(recs.size() - 1);
        List<Rec> good = recs.subList(0, recs.size() - 1);
        assertThat(good).allMatch(r -> r.error() == null);
        assertThat(good.size()).isBetween(1000, 49_000);
        String[] original = content.split("\n");
        for (int i = 0; i < good.size(); i++) {
            assertThat(good.get(i).text()).isEqualTo(original[i]);
        }
        long endOfGood = 0;
        for (int i = 0; i < good.size(); i++) {
            endOfGood += original[i].length() + 1;
        }
        assertThat(last.position()).isEqualTo(endOfGood);
        assertThat(last.error()).matches("(truncated input|read error): .*");
        assertThat(original[good.size()]).startsWith(last.text());
    }

    @Test
    void aFileThatIsNotGzipIsOneErrorAtPositionZero() throws Exception {
        Path file = dir.resolve("fake.ndjson.gz");
        Files.writeString(file, "{\"a\":1}\n");
        try (Source s = source(file, decode(Format.JSON, false), LocalCheckpoints.inMemory())) {
            List<Rec> recs = Rec.drain(s, 100, 10);
            assertThat(recs).hasSize(1);
            assertThat(recs.get(0).position()).isZero();
            assertThat(recs.get(0).error()).contains("Not in GZIP format");
        }
    }

    @Test
    void aFileRemovedBeforeItIsReadIsAPositionedError() throws Exception {
        Path a = write(dir.resolve("a.ndjson"), "{}\n");
        Path b = write(dir.resolve("b.ndjson"), "{}\n");
        List<Source> s =
                sources(
                        List.of(a.toString(), b.toString()),
                        decode(Format.JSON, false),
                        100,
                        1,
                        LocalCheckpoints.inMemory());
        Files.delete(b);
        List<Rec> recs = Rec.drain(s.get(0), 100, 10);
        assertThat(recs).hasSize(2);
        assertThat(recs.get(1).partition()).endsWith("b.ndjson");
        assertThat(recs.get(1).error()).contains("NoSuchFileException");
    }

    @Test
    void aNamedPipeIsReadLikeAFile() throws Exception {
        Path fifo = dir.resolve("pipe.ndjson");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0);
        Thread writer =
                new Thread(
                        () -> {
                            try {
                                Files.writeString(fifo, "{\"a\":1}\n{\"a\":2}\n");
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        });
        writer.start();
        try (Source s = source(fifo, decode(Format.JSON, false), LocalCheckpoints.inMemory())) {
            assertThat(Rec.drain(s, 100, 10))
                    .extracting(Rec::text)
                    .containsExactly("{\"a\":1}", "{\"a\":2}");
        }
        writer.join();
    }

    @Test
    void aRecordLongerThanTheLimitIsAnErrorWithItsPosition() throws Exception {
        Path file =
                write(
                        dir.resolve("big.ndjson"),
                        "{\"a\":1}\n{\"a\":\"" + "z".repeat(300) + "\"}\n{\"a\":3}\n");
        List<Source> s =
                sources(
                        List.of(file.toString()),
                        decode(Format.JSON, false),
                        64,
                        1,
                        LocalCheckpoints.inMemory());
        List<Rec> recs = Rec.drain(s.get(0), 100, 10);
        assertThat(recs).extracting(Rec::position).containsExactly(0L, 8L, 317L);
        assertThat(recs.get(1).error()).contains("longer than max_record_bytes (64)");
        assertThat(recs.get(1).text()).hasSize(64);
        assertThat(recs.get(2).text()).isEqualTo("{\"a\":3}");
    }

    @Test
    void invalidUtf8IsPassedThroughForTheDecoderToJudge() throws Exception {
        Path file = dir.resolve("bad.tsv");
        Files.write(file, new byte[] {'a', (byte) 0xC3, '\t', (byte) 0xFF, '\n', 'b', '\n'});
        try (Source s = source(file, decode(Format.TSV, false), LocalCheckpoints.inMemory())) {
            PolledRecords b = new PolledRecords();
            assertThat(s.poll(b, 10, 0)).isEqualTo(2);
            assertThat(b.errors).isZero();
            assertThat(b.length(0)).isEqualTo(4);
            assertThat(b.data[b.start[0] + 3]).isEqualTo((byte) 0xFF);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"r.ndjson", "r.ndjson.gz", "r.ndjson.zst"})
    void resumesFromTheCommittedPosition(String name) throws Exception {
        String content = lines(0, 1000);
        Path file = write(dir.resolve(name), content);
        Path state = dir.resolve("state");
        long resumeAt = lines(0, 600).length();
        try (Source s =
                source(file, decode(Format.JSON, false), LocalCheckpoints.open(state, "test"))) {
            s.commit(Map.of(file.toAbsolutePath().toString(), Checkpoint.at(resumeAt)));
        }
        try (Source s =
                source(file, decode(Format.JSON, false), LocalCheckpoints.open(state, "test"))) {
            List<Rec> recs = Rec.drain(s, 100, 1000);
            assertThat(recs).hasSize(400);
            assertThat(recs.get(0).position()).isEqualTo(resumeAt);
            assertThat(recs.get(0).text())
                    .isEqualTo("{\"id\":600,\"payload\":\"" + "p".repeat(0) + "\"}");
            assertThat(recs.get(0).line()).isZero();
            assertThat(s.bytesRead()).isEqualTo(Files.size(file));
        }
    }

    @Test
    void aResumedFileWithAHeaderDeliversTheHeaderFirst() throws Exception {
        Path file = write(dir.resolve("h.csv"), "id,name\n1,a\n2,b\n3,c\n");
        LocalCheckpoints store = LocalCheckpoints.inMemory();
        store.commit(Map.of(file.toAbsolutePath().toString(), Checkpoint.at(12)));
        try (Source s = source(file, decode(Format.CSV, true), store)) {
            PolledRecords b = new PolledRecords();
            assertThat(s.poll(b, 100, 0)).isEqualTo(1);
            assertThat(b.partitionStart).isTrue();
            assertThat(Rec.of(b))
                    .extracting(Rec::text, Rec::position)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("id,name", 0L));
            assertThat(b.endPosition).isEqualTo(12);
            List<Rec> rest = Rec.drain(s, 100, 10);
            assertThat(rest).extracting(Rec::text).containsExactly("2,b", "3,c");
            assertThat(rest.get(0).position()).isEqualTo(12);
        }
    }

    @Test
    void aFileShorterThanItsCommittedPositionIsReported() throws Exception {
        Path file = write(dir.resolve("s.ndjson"), "{}\n{}\n");
        LocalCheckpoints store = LocalCheckpoints.inMemory();
        store.commit(Map.of(file.toAbsolutePath().toString(), Checkpoint.at(100)));
        try (Source s = source(file, decode(Format.JSON, false), store)) {
            List<Rec> recs = Rec.drain(s, 100, 10);
            assertThat(recs).hasSize(1);
            assertThat(recs.get(0).position()).isEqualTo(100);
            assertThat(recs.get(0).error()).contains("truncated or replaced");
        }
    }

    @Test
    void commitsGoToTheStore() throws Exception {
        Path file = write(dir.resolve("c.ndjson"), "{}\n");
        LocalCheckpoints store = LocalCheckpoints.inMemory();
        try (Source s = source(file, decode(Format.JSON, false), store)) {
            s.commit(Map.of(file.toAbsolutePath().toString(), Checkpoint.at(3)));
        }
        assertThat(store.checkpoint(file.toAbsolutePath().toString()).position()).isEqualTo(3);
    }

    @Test
    void filesAreDealtToReadersRoundRobin() throws Exception {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            paths.add(write(dir.resolve("f" + i + ".ndjson"), "{\"f\":" + i + "}\n").toString());
        }
        List<Source> s =
                sources(
                        List.of(dir.resolve("*.ndjson").toString()),
                        decode(Format.JSON, false),
                        100,
                        3,
                        LocalCheckpoints.inMemory());
        assertThat(s).hasSize(3);
        assertThat(Rec.drain(s.get(0), 100, 10))
                .extracting(Rec::text)
                .containsExactly("{\"f\":0}", "{\"f\":3}");
        assertThat(Rec.drain(s.get(1), 100, 10))
                .extracting(Rec::text)
                .containsExactly("{\"f\":1}", "{\"f\":4}");
        assertThat(Rec.drain(s.get(2), 100, 10)).extracting(Rec::text).containsExactly("{\"f\":2}");
    }

    @Test
    void moreReadersThanFilesLeavesSomeIdle() throws Exception {
        Path a = write(dir.resolve("a.ndjson"), "{}\n");
        List<Source> s =
                sources(
                        List.of(a.toString()),
                        decode(Format.JSON, false),
                        100,
                        2,
                        LocalCheckpoints.inMemory());
        assertThat(s.get(1).poll(new PolledRecords(), 10, 0)).isEqualTo(-1);
        assertThat(s.get(1).bytesTotal()).isZero();
    }

    @Test
    void aMissingInputIsAnErrorAtCreation() {
        assertThatThrownBy(
                        () ->
                                sources(
                                        List.of(dir.resolve("nope.ndjson").toString()),
                                        decode(Format.JSON, false),
                                        100,
                                        1,
                                        LocalCheckpoints.inMemory()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope.ndjson");
    }

    private List<Rec> read(Path file) throws Exception {
        try (Source s = source(file, decode(Format.JSON, false), LocalCheckpoints.inMemory())) {
            return Rec.drain(s, 1000, 10_000);
        }
    }
}
