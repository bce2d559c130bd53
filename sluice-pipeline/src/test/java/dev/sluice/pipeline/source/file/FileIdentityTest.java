package dev.sluice.pipeline.source.file;

import static dev.sluice.pipeline.source.file.Inputs.decode;
import static dev.sluice.pipeline.source.file.Inputs.lines;
import static dev.sluice.pipeline.source.file.Inputs.source;
import static dev.sluice.pipeline.source.file.Inputs.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loss path 2 of the review: a file is known by more than its path. A different file under a path
 * whose position was committed starts from 0 with a warning and a run of its own — never at the old
 * offset (rows skipped) nor with the old file's tokens (rows dropped by a deduplicating server).
 */
class FileIdentityTest {
    @TempDir Path dir;

    /** What the runtime hears from the source. */
    private static final class Heard implements PartitionListener {
        final Map<String, Checkpoint> assigned = new LinkedHashMap<>();
        final List<String> warnings = new ArrayList<>();

        @Override
        public void assigned(String partition, Checkpoint checkpoint) {
            assigned.put(partition, checkpoint);
        }

        @Override
        public void revoking(Collection<String> partitions) {}

        @Override
        public void lost(Collection<String> partitions) {}

        @Override
        public void warning(String message) {
            warnings.add(message);
        }
    }

    /** Reads {@code file} to its end once, committing {@code position} with one batch past it. */
    private String firstRun(Path file, long position) throws Exception {
        try (LocalCheckpoints cps = LocalCheckpoints.open(dir.resolve("cp"), "test");
                Source s = source(file, decode(Format.JSON, false), cps)) {
            Heard heard = new Heard();
            s.open(heard);
            Rec.drain(s, 100, 1000);
            String name = file.toAbsolutePath().toString();
            s.commit(
                    Map.of(
                            name,
                            new Checkpoint(
                                    position,
                                    cps.run(),
                                    List.of(new LedgerEntry(name, position, position + 10, 0)))));
            return cps.run();
        }
    }

    private record Second(Heard heard, List<Rec> records) {}

    private Second secondRun(Path file) throws Exception {
        try (LocalCheckpoints cps = LocalCheckpoints.open(dir.resolve("cp"), "test");
                Source s = source(file, decode(Format.JSON, false), cps)) {
            Heard heard = new Heard();
            s.open(heard);
            return new Second(heard, Rec.drain(s, 100, 1000));
        }
    }

    @Test
    void aFileReplacedUnderTheSamePathStartsOverWithAWarningAndARunOfItsOwn() throws Exception {
        Path file = write(dir.resolve("events.ndjson"), lines(0, 100));
        long position = lines(0, 60).length();
        String run = firstRun(file, position);

        Path other = write(dir.resolve("new.ndjson"), lines(500, 600));
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Second second = secondRun(file);

        Checkpoint cp = second.heard().assigned.get(file.toAbsolutePath().toString());
        assertThat(cp.position()).isEqualTo(-1);
        assertThat(cp.inFlight()).isEmpty();
        assertThat(cp.run()).isNotEqualTo(run);
        assertThat(second.records()).hasSize(100);
        assertThat(second.records().get(0).text()).startsWith("{\"id\":500,");
        assertThat(second.heard().warnings)
                .singleElement()
                .asString()
                .contains("events.ndjson is not the file whose position " + position)
                .contains("another file")
                .contains("reading it from its start");
    }

    @Test
    void aFileRewrittenInPlaceWithOtherFirstBytesStartsOver() throws Exception {
        Path file = write(dir.resolve("events.ndjson"), lines(0, 100));
        firstRun(file, lines(0, 10).length());
        // Same inode, other content: truncated and written again.
        Files.writeString(file, lines(900, 1000), StandardOpenOption.TRUNCATE_EXISTING);
        Second second = secondRun(file);

        assertThat(second.records()).hasSize(100);
        assertThat(second.records().get(0).text()).startsWith("{\"id\":900,");
        assertThat(second.heard().warnings).singleElement().asString().contains("changed");
    }

    @Test
    void aFileThatOnlyGrewResumesAtItsPositionWithItsBatchesToReplay() throws Exception {
        Path file = write(dir.resolve("events.ndjson"), lines(0, 100));
        long position = lines(0, 60).length();
        String run = firstRun(file, position);
        Files.writeString(file, lines(100, 120), StandardOpenOption.APPEND);
        Second second = secondRun(file);

        Checkpoint cp = second.heard().assigned.get(file.toAbsolutePath().toString());
        assertThat(cp.position()).isEqualTo(position);
        assertThat(cp.run()).isEqualTo(run);
        assertThat(cp.inFlight()).hasSize(1);
        assertThat(second.heard().warnings).isEmpty();
        assertThat(second.records()).hasSize(60);
        assertThat(second.records().get(0).position()).isEqualTo(position);
    }

    @Test
    void aShorterFileUnderTheSamePathStartsOver() throws Exception {
        Path file = write(dir.resolve("events.ndjson"), lines(0, 100));
        firstRun(file, lines(0, 60).length());
        Inputs.truncate(file, 0.001); // fewer bytes than its fingerprint covered
        Second second = secondRun(file);
        assertThat(second.heard().warnings).singleElement().asString().contains("shorter");
    }
}
