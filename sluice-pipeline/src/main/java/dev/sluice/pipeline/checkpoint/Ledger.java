package dev.sluice.pipeline.checkpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The boundaries of every batch that may have reached the server and is not yet behind a committed
 * position, in {@code ledger.jsonl} of the checkpoint directory (property 2), and the run id that
 * goes into every token of the job (drawn when the ledger is created, kept across restarts).
 *
 * <p>A batch is recorded, fsynced, before it is handed to the sink (the pipeline thread commits its
 * boundaries through the file source's {@link LocalCheckpoints}), so after a crash every batch the
 * server may hold is in the file. On restart the entries at or after each partition's committed
 * position are replayed: the pipeline re-seals the re-read records at exactly those boundaries and
 * sends them to the same shard with the same token, and a server that deduplicates drops the copies
 * it already has.
 *
 * <pre>
 * {"sluice_ledger":1,"run":"4f1c9a0b27e3"}
 * {"p":"/data/a.json","f":0,"l":80211,"s":1,"n":1764741600}
 * {"p":"/data/a.json","f":80367,"l":161002,"s":0,"n":1764741601}
 * </pre>
 *
 * <p>A torn last line (a crash during its append) is ignored: its batch was never sent. When
 * entries overlap — a replayed batch had to be sealed early — the later one wins, being the last
 * attempt. Entries behind the committed position are dropped by rewriting the file (atomically)
 * once they outnumber the live ones.
 *
 * <p>Thread-safe: writers record, pipeline threads prune.
 */
public final class Ledger implements AutoCloseable {
    static final String FILE = "ledger.jsonl";
    private static final int VERSION = 1;
    private static final int MIN_OBSOLETE_BEFORE_REWRITE = 1024;
    private static final JsonFactory JSON = new JsonFactory();
    private static final Comparator<LedgerEntry> BY_FIRST =
            Comparator.comparingLong(LedgerEntry::first);

    private final Path file;
    private final String run;
    private final Map<String, List<LedgerEntry>> live;
    private final Map<String, List<LedgerEntry>> replay;
    private FileChannel channel;
    private int obsolete;

    private Ledger(Path file, String run, Map<String, List<LedgerEntry>> live) throws IOException {
        this.file = file;
        this.run = run;
        this.live = live;
        Map<String, List<LedgerEntry>> copy = new HashMap<>();
        live.forEach((p, entries) -> copy.put(p, List.copyOf(entries)));
        this.replay = copy;
        rewrite();
    }

    /**
     * Reads the ledger in {@code dir} (creating it if needed) and keeps the entries not yet behind
     * {@code committed} (partition → committed position; a partition absent from it has none).
     */
    public static Ledger open(Path dir, Map<String, Long> committed) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE);
        Map<String, List<LedgerEntry>> live = new HashMap<>();
        String[] run = {null};
        if (Files.exists(file)) {
            for (LedgerEntry e : read(file, run)) {
                if (e.last() >= committed.getOrDefault(e.partition(), -1L)) {
                    List<LedgerEntry> entries =
                            live.computeIfAbsent(e.partition(), k -> new ArrayList<>());
                    entries.removeIf(old -> old.first() <= e.last() && e.first() <= old.last());
                    entries.add(e);
                }
            }
            live.values().forEach(entries -> entries.sort(BY_FIRST));
        }
        return new Ledger(file, run[0] != null ? run[0] : newRun(), live);
    }

    /** A fresh run id: 48 random bits in hex. */
    public static String newRun() {
        byte[] b = new byte[6];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The entries of {@code file}; its run id goes to {@code run[0]}. */
    private static List<LedgerEntry> read(Path file, String[] run) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        boolean tornTail =
                Files.size(file) > 0 && lastByte(file) != '\n'; // the last append never finished
        List<LedgerEntry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean last = i == lines.size() - 1;
            if (line.isBlank() || (last && tornTail)) {
                continue;
            }
            try {
                LedgerEntry e = parse(line, run);
                if (e != null) {
                    entries.add(e);
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new IOException(
                        "corrupt batch ledger " + file + " at line " + (i + 1) + ": " + line, e);
            }
        }
        return entries;
    }

    private static int lastByte(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, ch.size() - 1);
            return b.get(0);
        }
    }

    /** An entry, or null for the header line (whose run id goes to {@code run[0]}). */
    private static LedgerEntry parse(String line, String[] run) throws IOException {
        boolean header = false;
        String partition = null;
        long first = -1;
        long last = -1;
        int shard = -1;
        long now = -1;
        String group = null;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "sluice_ledger" -> {
                        if (p.getIntValue() != VERSION) {
                            throw new IOException("unknown ledger version " + p.getText());
                        }
                        header = true;
                    }
                    case "run" -> run[0] = p.getText();
                    case "p" -> partition = p.getText();
                    case "f" -> first = p.getLongValue();
                    case "l" -> last = p.getLongValue();
                    case "s" -> shard = p.getIntValue();
                    case "n" -> now = p.getLongValue();
                    case "g" -> group = p.getText();
                    default -> p.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            throw new IOException(e.getOriginalMessage(), e);
        }
        if (header) {
            return null;
        }
        if (partition == null || first < 0 || shard < 0) {
            throw new IOException("incomplete entry");
        }
        return new LedgerEntry(partition, first, last, shard, now, group);
    }

    private static byte[] line(LedgerEntry e) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + e.partition().length());
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("p", e.partition());
            g.writeNumberField("f", e.first());
            g.writeNumberField("l", e.last());
            g.writeNumberField("s", e.shard());
            if (e.nowSeconds() >= 0) {
                g.writeNumberField("n", e.nowSeconds());
            }
            if (e.group() != null) {
                g.writeStringField("g", e.group());
            }
            g.writeEndObject();
        }
        out.write('\n');
        return out.toByteArray();
    }

    /** The job's run id, part of every deduplication token. */
    public String run() {
        return run;
    }

    /**
     * The batches of {@code partition} to re-seal, in position order, as found when the ledger was
     * opened.
     */
    public List<LedgerEntry> replay(String partition) {
        return replay.getOrDefault(partition, List.of());
    }

    /** Appends a batch's boundaries and makes them durable before the batch is sent. */
    public synchronized void record(LedgerEntry e) throws IOException {
        recordAll(List.of(e));
    }

    /**
     * Appends the entries not recorded yet, with one fsync; an entry overlapping an older one of
     * its partition replaces it (the later attempt wins, as when the file is read).
     */
    public synchronized void recordAll(List<LedgerEntry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (LedgerEntry e : entries) {
            List<LedgerEntry> mine = live.computeIfAbsent(e.partition(), k -> new ArrayList<>());
            if (mine.contains(e)) {
                continue;
            }
            int before = mine.size();
            mine.removeIf(old -> old.overlaps(e));
            obsolete += before - mine.size();
            mine.add(e);
            out.write(line(e));
        }
        if (out.size() > 0) {
            write(ByteBuffer.wrap(out.toByteArray()));
            channel.force(false);
        }
    }

    /** True when {@code e} is recorded and not yet behind a committed position. */
    public synchronized boolean recorded(LedgerEntry e) {
        return live.getOrDefault(e.partition(), List.of()).contains(e);
    }

    /**
     * Forgets every entry of {@code partition}, live and to replay: its input was replaced, so its
     * old boundaries mean nothing for the new content. Durable before returning.
     */
    public synchronized void forget(String partition) throws IOException {
        replay.remove(partition);
        if (live.remove(partition) != null) {
            rewrite();
        }
    }

    /** Forgets the entries of {@code partition} behind its new committed position. */
    public synchronized void prune(String partition, long committed) throws IOException {
        List<LedgerEntry> entries = live.get(partition);
        if (entries == null) {
            return;
        }
        int before = entries.size();
        entries.removeIf(e -> e.last() < committed);
        obsolete += before - entries.size();
        if (entries.isEmpty()) {
            live.remove(partition);
        }
        if (obsolete >= Math.max(MIN_OBSOLETE_BEFORE_REWRITE, liveEntries())) {
            rewrite();
        }
    }

    /** Entries not yet behind a committed position. */
    public synchronized int liveEntries() {
        int n = 0;
        for (List<LedgerEntry> entries : live.values()) {
            n += entries.size();
        }
        return n;
    }

    private void rewrite() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(
                ("{\"sluice_ledger\":" + VERSION + ",\"run\":\"" + run + "\"}\n")
                        .getBytes(StandardCharsets.US_ASCII));
        for (List<LedgerEntry> entries : live.values()) {
            for (LedgerEntry e : entries) {
                out.write(line(e));
            }
        }
        if (channel != null) {
            channel.close();
        }
        AtomicFiles.replace(file, out.toByteArray());
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        obsolete = 0;
    }

    private void write(ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
