package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DedupTokenTest {

    @Test
    void readableForPlainNames() {
        assertThat(DedupToken.of("events", "4f1c9a0b27e3", "file", "/data/a.json", 0, 4096, 1))
                .isEqualTo("events@4f1c9a0b27e3/file//data/a.json/0-4096/1");
    }

    @Test
    void namesThatNeedCleaningGetAHashSoTheyStayDistinct() {
        String a = DedupToken.of("p", "r", "file", "/data/a b.json", 0, 10, 0);
        String b = DedupToken.of("p", "r", "file", "/data/a_b.json", 0, 10, 0);
        assertThat(a).startsWith("p@r/file//data/a_b.json~").endsWith("/0-10/0");
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void longPartitionsKeepTheirEndAndAHash() {
        String longPath = "/very/" + "deep/".repeat(40) + "file.json";
        String token = DedupToken.of("p", "r", "file", longPath, 5, 6, 0);
        String partition = token.substring("p@r/file/".length(), token.indexOf("/5-6/0"));
        assertThat(partition).contains("deep/file.json~");
        assertThat(partition.length()).isLessThan(DedupToken.MAX_PARTITION_CHARS + 20);
        assertThat(DedupToken.of("p", "r", "file", longPath.replace("very", "vary"), 5, 6, 0))
                .isNotEqualTo(token);
    }

    @Test
    void theSameBoundariesGiveTheSameTokenEveryTime() {
        assertThat(DedupToken.of("p", "r", "s", "x y", 1, 2, 3))
                .isEqualTo(DedupToken.of("p", "r", "s", "x y", 1, 2, 3));
    }

    @Test
    void anotherRunOfTheSamePositionsGetsAnotherToken() {
        assertThat(DedupToken.of("p", "run1", "gen", "", 0, 99, 0))
                .isNotEqualTo(DedupToken.of("p", "run2", "gen", "", 0, 99, 0));
    }
}
