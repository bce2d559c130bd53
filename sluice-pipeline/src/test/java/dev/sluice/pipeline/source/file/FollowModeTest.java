package dev.sluice.pipeline.source.file;

import static dev.sluice.pipeline.source.file.Inputs.decode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FollowModeTest {
    private static final long SECOND = 1_000_000_000L;

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock();
    private final PolledRecords batch = new PolledRecords();

    private List<Source> follow(int readers, String... paths) throws Exception {
        return SourceFactory.create(
                new PipelineSpec.FileSource(List.of(paths), true, 1 << 20, Duration.ofSeconds(2)),
                decode(Format.JSON, false),
                readers,
                LocalCheckpoints.inMemory(),
                clock);
    }

    private static void append(Path file, String text) throws Exception {
        Files.writeString(
                file,
                text,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /** Polls (each waiting up to a second of the manual clock) until nothing more comes. */
    private List<Rec> pollAll(Source s) throws Exception {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int n = s.poll(batch, 100, SECOND);
            assertThat(n).isNotNegative();
            out.addAll(Rec.of(batch));
        }
        return out;
    }

    @Test
    void aGrowingFileIsTailedWithPositionsContinuing() throws Exception {
        Path log = dir.resolve("app.ndjson");
        append(log, "{\"n\":1}\n");
        try (Source s = follow(1, log.toString()).get(0)) {
            assertThat(pollAll(s))
                    .extracting(Rec::text, Rec::position)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("{\"n\":1}", 0L));
            assertThat(s.bytesTotal()).isEqualTo(-1);
            long before = clock.nanoTime();
            assertThat(s.poll(batch, 100, SECOND)).isZero();
            assertThat(clock.nanoTime() - before).isEqualTo(SECOND);

            append(log, "{\"n\":2}\n{\"n\":");
            assertThat(pollAll(s))
                    .extracting(Rec::text, Rec::position)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("{\"n\":2}", 8L));
            append(log, "3}\n");
            assertThat(pollAll(s))
                    .extracting(Rec::text, Rec::position, Rec::line)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("{\"n\":3}", 16L, 3L));
            assertThat(s.bytesRead()).isEqualTo(Files.size(log));
        }
    }

    @Test
    void growthIsNoticedOnlyAtThePollInterval() throws Exception {
        Path log = dir.resolve("app.ndjson");
        append(log, "{}\n");
        try (Source s = follow(1, log.toString()).get(0)) {
            assertThat(s.poll(batch, 100, 0)).isEqualTo(1);
            assertThat(s.poll(batch, 100, 0)).isZero();
            append(log, "{\"late\":1}\n");
            assertThat(s.poll(batch, 100, 0)).as("the scan is not due yet").isZero();
            clock.advanceMillis(2000);
            assertThat(s.poll(batch, 100, 0)).isEqualTo(1);
        }
    }

    @Test
    void newFilesMatchingTheGlobArePickedUp() throws Exception {
        append(dir.resolve("a.ndjson"), "{\"f\":\"a\"}\n");
        try (Source s = follow(1, dir + "/*.ndjson").get(0)) {
            assertThat(pollAll(s)).hasSize(1);
            append(dir.resolve("b.ndjson"), "{\"f\":\"b\"}\n");
            append(dir.resolve("ignored.csv"), "x\n");
            List<Rec> recs = pollAll(s);
            assertThat(recs).extracting(Rec::text).containsExactly("{\"f\":\"b\"}");
            assertThat(recs.get(0).partition()).endsWith("b.ndjson");
        }
    }

    @Test
    void newFilesGoToExactlyOneReader() throws Exception {
        append(dir.resolve("a.ndjson"), "{}\n");
        List<Source> readers = follow(3, dir + "/*.ndjson");
        for (Source s : readers) {
            pollAll(s);
        }
        for (int i = 0; i < 12; i++) {
            append(dir.resolve("new-" + i + ".ndjson"), "{\"i\":" + i + "}\n");
        }
        List<String> seen = new ArrayList<>();
        for (Source s : readers) {
            pollAll(s).forEach(r -> seen.add(r.text()));
            s.close();
        }
        assertThat(seen).hasSize(12).doesNotHaveDuplicates();
    }

    @Test
    void aMissingFileIsWaitedFor() throws Exception {
        Path log = dir.resolve("later.ndjson");
        try (Source s = follow(1, log.toString()).get(0)) {
            assertThat(pollAll(s)).isEmpty();
            append(log, "{}\n");
            assertThat(pollAll(s)).hasSize(1);
        }
    }

    @Test
    void aTruncatedFileIsReportedAndNoLongerFollowed() throws Exception {
        Path log = dir.resolve("t.ndjson");
        append(log, "{\"a\":1}\n{\"a\":2}\n");
        try (Source s = follow(1, log.toString()).get(0)) {
            assertThat(pollAll(s)).hasSize(2);
            Files.writeString(log, "{}\n");
            List<Rec> recs = pollAll(s);
            assertThat(recs).hasSize(1);
            assertThat(recs.get(0).error()).contains("shrank").contains("truncated or replaced");
            assertThat(recs.get(0).position()).isEqualTo(16);
        }
    }
}
