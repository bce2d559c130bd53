package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnresolvedInsertsTest {
    @TempDir Path dir;

    @Test
    void anInsertLeftUnknownIsThereForTheNextRunUntilItIsSettled() throws Exception {
        UnresolvedInserts first = UnresolvedInserts.open(dir);
        assertThat(first.add("job@run/file/a.tsv/0-99/0")).isNull();
        assertThat(first.add("job@run/file/a.tsv/100-199/1/p0")).isNull();
        assertThat(Files.readAllLines(dir.resolve(UnresolvedInserts.FILE)))
                .containsExactly("job@run/file/a.tsv/0-99/0", "job@run/file/a.tsv/100-199/1/p0");

        UnresolvedInserts next = UnresolvedInserts.open(dir);
        assertThat(next.contains("job@run/file/a.tsv/0-99/0")).isTrue();
        next.remove("job@run/file/a.tsv/0-99/0");
        assertThat(UnresolvedInserts.open(dir).tokens())
                .containsExactly("job@run/file/a.tsv/100-199/1/p0");
        assertThat(dir.resolve(UnresolvedInserts.FILE + ".tmp")).doesNotExist();
    }

    @Test
    void withoutACheckpointDirectoryItIsKeptInMemory() {
        UnresolvedInserts u = UnresolvedInserts.inMemory();
        assertThat(u.add("t")).isNull();
        assertThat(u.contains("t")).isTrue();
        u.remove("t");
        assertThat(u.tokens()).isEmpty();
    }

    @Test
    void aRecordThatCannotBeWrittenIsReportedNotThrown() throws Exception {
        Path gone = dir.resolve("gone");
        Files.createDirectories(gone);
        UnresolvedInserts u = UnresolvedInserts.open(gone);
        Files.delete(gone);
        assertThat(u.add("t")).isNotNull();
        assertThat(u.contains("t")).isTrue(); // still known to this run
    }
}
