package dev.sluice.pipeline.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.source.framing.Splitter;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits of a file read in chunks are contiguous (property 8): the file's position is where the
 * first incomplete chunk is, whatever later chunks did; batch boundaries past it are kept, later
 * chunks' included; a restart cuts the file clear of the batches it must replay.
 */
class ChunkedFileTest {
    @TempDir Path dir;

    /** 30 lines of 10 bytes: 300 bytes, three chunks of 100 with 3 readers and 50-byte shares. */
    private Path file() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            sb.append(String.format("{\"i\":%03d}\n", i));
        }
        return Inputs.write(dir.resolve("in.ndjson"), sb.toString());
    }

    private ChunkedFile chunked(Path file, LocalCheckpoints store) throws IOException {
        InputFile in = InputFile.of(file, Files.size(file));
        return new ChunkedFile(in, 3, Splitter.lines(), 50, store);
    }

    private static Checkpoint at(long position, LedgerEntry... inFlight) {
        return new Checkpoint(position, "r", List.of(inFlight));
    }

    @Test
    void chunksAreCutAtLineStartsNearEqualShares() throws IOException {
        ChunkedFile f = chunked(file(), LocalCheckpoints.inMemory());
        assertThat(f.chunk(0, null).start()).isEqualTo(0);
        assertThat(f.chunk(0, null).end()).isEqualTo(100);
        assertThat(f.chunk(1, null).start()).isEqualTo(100);
        assertThat(f.chunk(1, null).end()).isEqualTo(200);
        assertThat(f.chunk(2, null).start()).isEqualTo(200);
        assertThat(f.chunk(2, null).end()).isEqualTo(Long.MAX_VALUE);
        assertThat(f.chunk(1, null).checkpoint().position()).isEqualTo(-1);
    }

    @Test
    void theFilePositionWaitsForEarlierChunks() throws IOException {
        ChunkedFile f = chunked(file(), LocalCheckpoints.inMemory());
        f.chunk(0, null);
        LedgerEntry later = new LedgerEntry(f.file().name(), 200, 250, 0, 1);
        // The last chunk is done and its batch acknowledged: nothing before it is, so nothing
        // moves.
        assertThat(f.committed(2, at(200, later)).position()).isEqualTo(-1);
        assertThat(f.committed(2, at(300)).position()).isEqualTo(-1);
        // Its batch stays in the file's checkpoint: it may be in ClickHouse, past the position.
        assertThat(f.committed(1, at(150)).inFlight()).containsExactly(later);
        assertThat(f.committed(0, at(60)).position()).isEqualTo(60);
        // The first chunk completes: the position runs on to where the second is.
        assertThat(f.committed(0, at(100)).position()).isEqualTo(150);
        Checkpoint done = f.committed(1, at(200));
        assertThat(done.position()).isEqualTo(300);
        assertThat(done.inFlight()).isEmpty();
        assertThat(f.position()).isEqualTo(300);
    }

    @Test
    void randomProgressNeverCommitsPastAnIncompleteChunk() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            ChunkedFile f = chunked(file(), LocalCheckpoints.inMemory());
            long[] start = new long[3];
            long[] end = new long[3];
            for (int i = 0; i < 3; i++) {
                start[i] = f.chunk(i, null).start();
                end[i] = i < 2 ? f.chunk(i, null).end() : 300;
            }
            long[] progress = {-1, -1, -1};
            long before = -1;
            for (int step = 0; step < 12; step++) {
                int i = random.nextInt(3);
                long next = Math.min(end[i], Math.max(progress[i], start[i]) + random.nextInt(60));
                progress[i] = Math.max(progress[i], next);
                long position = f.committed(i, at(progress[i])).position();
                long expected = progress[0];
                for (int k = 0; k < 2 && progress[k] >= end[k]; k++) {
                    expected = Math.max(progress[k + 1], end[k]);
                }
                assertThat(position).isEqualTo(expected).isGreaterThanOrEqualTo(before);
                before = position;
            }
        }
    }

    @Test
    void aRestartCutsClearOfTheBatchesItReplays() {
        List<LedgerEntry> replay =
                List.of(new LedgerEntry("f", 90, 130, 0, 1), new LedgerEntry("f", 140, 260, 1, 1));
        // 100 falls inside the first batch, 200 inside the second: both move to the batch's start.
        assertThat(ChunkedFile.clearOfReplays(new long[] {100, 200}, 0, replay))
                .containsExactly(90, 140);
        // A cut that ends up behind the previous one is dropped.
        assertThat(ChunkedFile.clearOfReplays(new long[] {150, 200}, 0, replay))
                .containsExactly(140);
        assertThat(ChunkedFile.clearOfReplays(new long[] {100}, 100, replay)).isEmpty();
    }

    @Test
    void aResumedFileIsSplitFromItsPositionAndEachChunkGetsItsReplays() throws IOException {
        Path file = file();
        String name = file.toAbsolutePath().toString();
        Path state = dir.resolve("state");
        try (LocalCheckpoints store = LocalCheckpoints.open(state, "p")) {
            ChunkedFile first = chunked(file, store);
            first.chunk(0, null); // identifies the file
            LedgerEntry a = new LedgerEntry(name, 50, 70, 0, 1);
            LedgerEntry b = new LedgerEntry(name, 160, 250, 1, 1);
            store.commit(Map.of(name, new Checkpoint(50, store.run(), List.of(a, b))));
        }
        try (LocalCheckpoints store = LocalCheckpoints.open(state, "p")) {
            ChunkedFile again = chunked(file, store);
            // [50, 300) in three: targets 133 and 216, the second inside the batch from 160.
            assertThat(again.chunk(0, null).start()).isEqualTo(50);
            assertThat(again.chunk(0, null).checkpoint().position()).isEqualTo(50);
            assertThat(again.chunk(0, null).checkpoint().inFlight())
                    .extracting(LedgerEntry::first)
                    .containsExactly(50L);
            assertThat(again.chunk(1, null).start()).isEqualTo(140);
            assertThat(again.chunk(1, null).end()).isEqualTo(160);
            assertThat(again.chunk(2, null).start()).isEqualTo(160);
            assertThat(again.chunk(2, null).checkpoint().inFlight())
                    .extracting(LedgerEntry::first)
                    .containsExactly(160L);
        }
    }

    @Test
    void aFileGoneBeforeItIsSplitFailsInTheFirstChunkAlone() throws Exception {
        Path file = file();
        String name = file.toAbsolutePath().toString();
        LocalCheckpoints store = LocalCheckpoints.inMemory();
        List<Source> sources =
                SourceFactory.files(
                        new PipelineSpec.FileSource(List.of(file.toString()), false, 1 << 20),
                        Inputs.decode(Format.JSON, false),
                        3,
                        store,
                        Clock.SYSTEM,
                        50);
        Files.delete(file);
        List<Rec> first = Rec.drain(sources.get(0), 100, 10);
        assertThat(first)
                .singleElement()
                .satisfies(r -> assertThat(r.error()).contains("in.ndjson"));
        assertThat(Rec.drain(sources.get(1), 100, 10)).isEmpty();
        assertThat(Rec.drain(sources.get(2), 100, 10)).isEmpty();
        sources.get(0).commit(Map.of(name, at(0)));
        assertThat(store.positions()).containsEntry(name, 0L);
        for (Source s : sources) {
            s.close();
        }
    }

    @Test
    void sourcesCommitTheFilesContiguousPositionAndReportIt() throws Exception {
        Path file = file();
        String name = file.toAbsolutePath().toString();
        LocalCheckpoints store = LocalCheckpoints.inMemory();
        List<Source> sources =
                SourceFactory.files(
                        new PipelineSpec.FileSource(List.of(file.toString()), false, 1 << 20),
                        Inputs.decode(Format.JSON, false),
                        3,
                        store,
                        Clock.SYSTEM,
                        50);
        List<List<Rec>> read = new ArrayList<>();
        for (Source s : sources) {
            read.add(Rec.drain(s, 100, 10));
        }
        assertThat(read).allSatisfy(records -> assertThat(records).hasSize(10));
        // The second reader finished its chunk: the file's position does not move past the first's.
        sources.get(1).commit(Map.of(name, at(200)));
        assertThat(store.positions()).doesNotContainKey(name);
        assertThat(sources.get(1).committedPosition(name, 200)).isEqualTo(-1);
        sources.get(0).commit(Map.of(name, at(100)));
        assertThat(store.positions()).containsEntry(name, 200L);
        assertThat(sources.get(0).committedPosition(name, 100)).isEqualTo(200);
        for (Source s : sources) {
            s.close();
        }
    }
}
