package dev.sluice.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a pipeline keeps in its {@code checkpoint.dir}, as the runtime writes it
 * (sluice-pipeline's {@code CheckpointStore} and {@code Ledger}): the committed position of every
 * partition ({@code committed.json}, replaced atomically, so what is on disk after a kill -9 is
 * exactly what was committed) and the batch ledger ({@code ledger.jsonl}: every batch that may have
 * reached the server, recorded before its first send).
 */
final class Checkpoints {
    private static final Pattern POSITION = Pattern.compile("\"([^\"]+)\":(\\d+)");
    private static final Pattern ENTRY =
            Pattern.compile(
                    "\\{\"p\":\"([^\"]+)\",\"f\":(\\d+),\"l\":(\\d+),\"s\":(\\d+)(?:,\"n\":\\d+)?}");

    /** One ledger line: a batch of partition {@code p} from position {@code f} to {@code l}. */
    record LedgerEntry(String partition, long first, long last, int shard) {}

    private Checkpoints() {}

    /** Partition → committed position; empty when nothing was committed yet. */
    static Map<String, Long> committed(Path dir) throws IOException {
        Map<String, Long> positions = new TreeMap<>();
        String json;
        try {
            json = Files.readString(dir.resolve("committed.json"));
        } catch (NoSuchFileException e) {
            return positions;
        }
        int at = json.indexOf("\"positions\":{");
        if (at < 0) {
            throw new IllegalStateException("unexpected committed.json: " + json);
        }
        Matcher m = POSITION.matcher(json.substring(at + "\"positions\":".length()));
        while (m.find()) {
            positions.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return positions;
    }

    /** The complete lines of the ledger (a torn last line, never sent, is left out). */
    static List<LedgerEntry> ledger(Path dir) throws IOException {
        List<LedgerEntry> entries = new ArrayList<>();
        String text;
        try {
            text = Files.readString(dir.resolve("ledger.jsonl"));
        } catch (NoSuchFileException e) {
            return entries;
        }
        int end = text.lastIndexOf('\n');
        for (String line : text.substring(0, end + 1).split("\n")) {
            Matcher m = ENTRY.matcher(line);
            if (m.matches()) {
                entries.add(
                        new LedgerEntry(
                                m.group(1),
                                Long.parseLong(m.group(2)),
                                Long.parseLong(m.group(3)),
                                Integer.parseInt(m.group(4))));
            }
        }
        return entries;
    }
}
