package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property 8 through the runtime: two pipeline threads read a file in two chunks; while the first
 * chunk's first batch is held unacknowledged, the second chunk is written and committed whole, yet
 * the file's committed position does not move — only the second chunk's batch boundaries are
 * recorded; once the batch is acknowledged the position runs to the end.
 */
@Timeout(60)
class ChunkedCommitTest {
    private static final int ROWS = 4000;

    @TempDir Path dir;

    @Test
    void theFilePositionWaitsForTheFirstChunksHeldBatch() throws Exception {
        StringBuilder text = new StringBuilder();
        long[] position = new long[ROWS + 1];
        for (int k = 0; k < ROWS; k++) {
            position[k] = text.length();
            text.append(k).append(",r").append(k).append('\n');
        }
        position[ROWS] = text.length();
        Path file = dir.resolve("in.csv");
        Files.writeString(file, text, StandardCharsets.US_ASCII);
        String name = file.toAbsolutePath().toString();
        long size = position[ROWS];
        // The second chunk starts at the first line that starts at or after half the size.
        int firstOfSecond = 0;
        while (position[firstOfSecond] < size / 2) {
            firstOfSecond++;
        }
        int second = firstOfSecond;
        long secondStart = position[second];

        LocalCheckpoints store = LocalCheckpoints.inMemory();
        List<Source> sources =
                SourceFactory.files(
                        new PipelineSpec.FileSource(List.of(file.toString()), false, 1 << 20),
                        new DecodeSpec(Format.CSV, List.of(), false, Map.of(), false, ','),
                        2,
                        store,
                        Clock.SYSTEM,
                        size / 4);
        TestFactories f =
                new TestFactories(
                        Tables.table("t", "n UInt64", "s String"),
                        FakeInserter.server(18, 16),
                        List.of("n", "s"),
                        (reader, checkpoints) -> sources.get(reader));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondWritten = new CountDownLatch(ROWS - second);
        AtomicLong held = new AtomicLong();
        f.replica("clickhouse://a:9000/db")
                .onInsert(
                        insert -> {
                            for (List<Object> row : insert.rows()) {
                                if ((Long) row.get(0) >= second) {
                                    secondWritten.countDown();
                                }
                            }
                            if ((Long) insert.rows().get(0).get(0) == 0) {
                                held.set(insert.rows().size());
                                await(release);
                            }
                        });
        PipelineSpec spec =
                new Specs.Builder()
                        .threads(2)
                        .maxRows(300)
                        .checkpoint(null, Duration.ofMillis(10))
                        .build();
        Pipeline p = Pipeline.start(spec, f, Clock.SYSTEM);

        assertThat(secondWritten.await(30, TimeUnit.SECONDS)).isTrue();
        // Time for the second chunk's thread to take its acknowledgements and commit them.
        Thread.sleep(300);
        // At most the held batch's first record: nothing of the second chunk counts yet.
        assertThat(store.positions().getOrDefault(name, -1L)).isLessThanOrEqualTo(0);
        assertThat(store.checkpoint(name).inFlight())
                .extracting(LedgerEntry::first)
                .contains(0L, secondStart);
        assertThat(p.awaitCompletion(Duration.ofMillis(1))).isNull();

        release.countDown();
        PipelineResult r = p.awaitCompletion();
        assertThat(r.status()).as(r.message()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(held.get()).isEqualTo(300);
        assertThat(r.committed()).containsEntry(name, size);
        assertThat(store.positions()).containsEntry(name, size);
        assertThat(store.checkpoint(name).inFlight()).isEmpty();
        Set<Long> keys = new HashSet<>();
        for (List<Object> row : f.rows()) {
            assertThat(keys.add((Long) row.get(0))).isTrue();
        }
        assertThat(keys).hasSize(ROWS);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new UncheckedIOException(new IOException("never released"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
