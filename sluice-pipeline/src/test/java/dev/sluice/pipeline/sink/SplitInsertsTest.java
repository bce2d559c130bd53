package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SplitInsertsTest {
    @TempDir Path dir;

    @Test
    void aRecordedSplitSurvivesARestart() throws IOException {
        SplitInserts s = SplitInserts.open(dir);
        assertThat(s.contains("a@r/file/x/0-9/0")).isFalse();
        s.add("a@r/file/x/0-9/0");
        s.add("a@r/file/x/0-9/0/r0-4");
        s.add("a@r/file/x/0-9/0"); // once
        assertThat(Files.readString(dir.resolve(SplitInserts.FILE)))
                .isEqualTo("a@r/file/x/0-9/0\na@r/file/x/0-9/0/r0-4\n");

        SplitInserts again = SplitInserts.open(dir);
        assertThat(again.contains("a@r/file/x/0-9/0")).isTrue();
        assertThat(again.contains("a@r/file/x/0-9/0/r0-4")).isTrue();
        assertThat(again.contains("a@r/file/x/0-9/0/r5-9")).isFalse();
    }

    @Test
    void aLineTornByACrashIsIgnoredAndTheNextStartsALineOfItsOwn() throws IOException {
        // The crash cut "T/r0-49999\n" short: "T/r0-4999" would name another part.
        Files.writeString(dir.resolve(SplitInserts.FILE), "T\nT/r0-4999", StandardCharsets.UTF_8);
        SplitInserts s = SplitInserts.open(dir);
        assertThat(s.contains("T")).isTrue();
        assertThat(s.contains("T/r0-4999")).isFalse();
        s.add("U");
        assertThat(Files.readString(dir.resolve(SplitInserts.FILE))).isEqualTo("T\nU\n");
    }

    @Test
    void onlyTheLatestTokensAreKept() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < SplitInserts.MAX_KEPT + 5; i++) {
            sb.append("t").append(i).append('\n');
        }
        Files.writeString(dir.resolve(SplitInserts.FILE), sb);
        SplitInserts s = SplitInserts.open(dir);
        assertThat(s.contains("t4")).isFalse();
        assertThat(s.contains("t5")).isTrue();
        assertThat(s.contains("t" + (SplitInserts.MAX_KEPT + 4))).isTrue();
        assertThat(Files.readAllLines(dir.resolve(SplitInserts.FILE)))
                .hasSize(SplitInserts.MAX_KEPT);
    }

    @Test
    void aSplitThatCannotBeRecordedIsRefused() throws IOException {
        SplitInserts s = SplitInserts.open(dir);
        Files.createDirectory(dir.resolve(SplitInserts.FILE)); // a directory where the file goes
        assertThatThrownBy(() -> s.add("T")).isInstanceOf(IOException.class);
        assertThat(s.contains("T")).isFalse();
        SplitInserts memory = SplitInserts.inMemory();
        memory.add("T");
        assertThat(memory.contains("T")).isTrue();
    }
}
