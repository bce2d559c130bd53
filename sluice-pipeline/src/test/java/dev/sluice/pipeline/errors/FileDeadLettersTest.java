package dev.sluice.pipeline.errors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.source.PolledRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDeadLettersTest {
    @TempDir Path dir;

    /** The fields of one NDJSON line, as text. */
    private static Map<String, String> fields(String line) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (JsonParser p = new JsonFactory().createParser(line)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                out.put(name, v == JsonToken.VALUE_NULL ? null : p.getText());
            }
            assertThat(p.nextToken()).isNull();
        }
        return out;
    }

    @Test
    void writesOneLinePerRecordWithPositionReasonAndRecord() throws IOException {
        Path file = dir.resolve("sub/dead.ndjson");
        byte[] invalid = {'a', (byte) 0xFF, '\n', 0};
        PolledRecords b =
                DecodeFixture.batch("{\"a\":\"é\\\"\"}".getBytes(StandardCharsets.UTF_8), invalid);
        b.source = "file";
        b.partition = "/data/in.json";
        b.position[1] = 4096;
        b.line[1] = 0;
        try (FileDeadLetters dl = FileDeadLetters.open(file)) {
            dl.write(b, 0, "column a (UInt8): 'é\"' is not an integer");
            dl.write(b, 1, "invalid JSON at byte 1: Invalid UTF-8 start byte 0xff");
            assertThat(dl.count()).isEqualTo(2);
            dl.flush();
            List<String> lines = Files.readAllLines(file);
            assertThat(lines).hasSize(2);
            Map<String, String> first = fields(lines.get(0));
            assertThat(first.keySet())
                    .containsExactly("source", "partition", "position", "line", "reason", "record");
            assertThat(first.get("source")).isEqualTo("file");
            assertThat(first.get("partition")).isEqualTo("/data/in.json");
            assertThat(first.get("position")).isEqualTo("0");
            assertThat(first.get("line")).isEqualTo("1");
            assertThat(first.get("reason")).isEqualTo("column a (UInt8): 'é\"' is not an integer");
            assertThat(first.get("record")).isEqualTo("{\"a\":\"é\\\"\"}");
            Map<String, String> second = fields(lines.get(1));
            assertThat(second.get("position")).isEqualTo("4096");
            assertThat(second.get("line")).isNull();
            assertThat(second).doesNotContainKey("record");
            assertThat(Base64.getDecoder().decode(second.get("record_base64"))).isEqualTo(invalid);
        }
        try (FileDeadLetters again = FileDeadLetters.open(file)) {
            again.write(b, 0, "once more");
        }
        assertThat(Files.readAllLines(file)).as("appends, flushed on close").hasSize(3);
    }

    @Test
    void manyLinesAreWrittenOutBeforeAFlushAndNoneAreLost() throws IOException {
        Path file = dir.resolve("many.ndjson");
        PolledRecords b = DecodeFixture.batch("x".repeat(1000));
        try (FileDeadLetters dl = FileDeadLetters.open(file)) {
            for (int i = 0; i < 200; i++) {
                dl.write(b, 0, "reason " + i);
            }
            assertThat(Files.size(file)).as("written out past the buffer").isGreaterThan(0);
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(200);
        assertThat(fields(lines.get(199)).get("reason")).isEqualTo("reason 199");
    }

    @Test
    void aRowTheServerRejectedCarriesTheRowAsSentInsteadOfARecord() throws IOException {
        Path file = dir.resolve("rows.ndjson");
        byte[] valid = "{\"n\":13,\"s\":\"é\"}".getBytes(StandardCharsets.UTF_8);
        byte[] notUtf8 = {'{', '"', 's', '"', ':', '"', (byte) 0xFF, '"', '}'};
        byte[] notJson = "{\"n\":".getBytes(StandardCharsets.UTF_8);
        try (FileDeadLetters dl = FileDeadLetters.open(file)) {
            dl.writeRow("kafka", "events-3", 1234, valid, "ClickHouse error 395: throwIf");
            dl.writeRow("file", "/data/a.tsv", 77, notUtf8, "ClickHouse error 6: parse");
            dl.writeRow("file", "/data/a.tsv", 78, notJson, "ClickHouse error 6: parse");
            assertThat(dl.count()).isEqualTo(3);
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0))
                .isEqualTo(
                        "{\"source\":\"kafka\",\"partition\":\"events-3\",\"position\":1234,"
                                + "\"line\":null,\"reason\":\"ClickHouse error 395: throwIf\","
                                + "\"row\":{\"n\":13,\"s\":\"é\"}}");
        try (JsonParser p = new JsonFactory().createParser(lines.get(0))) {
            while (p.nextToken() != null) {} // one valid JSON value
        }
        Map<String, String> second = fields(lines.get(1));
        assertThat(second.keySet())
                .containsExactly("source", "partition", "position", "line", "reason", "row_base64");
        assertThat(Base64.getDecoder().decode(second.get("row_base64"))).isEqualTo(notUtf8);
        assertThat(Base64.getDecoder().decode(fields(lines.get(2)).get("row_base64")))
                .isEqualTo(notJson);
    }
}
