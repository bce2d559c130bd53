package dev.sluice.pipeline.source;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a message source knows of each record besides its bytes — Kafka's key, timestamp, topic,
 * partition and headers — kept beside a {@link PolledRecords} and reused from poll to poll like it:
 * keys and header names and values are slices of one byte buffer, so a record costs no object.
 * Entry {@code i} belongs to record {@code i} of the batch; the offset is the record's position.
 *
 * <p>Only the source that fills the batch writes it.
 */
public final class RecordMetadata {
    /** The topic of every record of the batch (one partition per batch). */
    public String topic = "";

    /** The partition number within the topic. */
    public int partition;

    /** Keys, header names and values: slices of this buffer. */
    public byte[] bytes = new byte[1 << 12];

    private int used;

    /** Key of record i: {@code bytes[keyStart[i], keyEnd[i])}; {@code keyStart[i] < 0}: none. */
    public int[] keyStart = new int[256];

    public int[] keyEnd = new int[256];

    /** The record's timestamp, epoch milliseconds. */
    public long[] timestamp = new long[256];

    /** Headers of record i: entries {@code [headerFirst[i], headerFirst[i] + headerCount[i])}. */
    public int[] headerFirst = new int[256];

    public int[] headerCount = new int[256];

    /** Header entry j: name and value slices; {@code valueStart[j] < 0} for a null value. */
    public int[] nameStart = new int[64];

    public int[] nameEnd = new int[64];
    public int[] valueStart = new int[64];
    public int[] valueEnd = new int[64];
    private int headers;

    /** Drops every entry, keeping the arrays. */
    public void clear() {
        used = 0;
        headers = 0;
    }

    /** Starts record {@code i}'s entry: its key (null for none) and timestamp, no headers yet. */
    public void record(int i, byte[] key, long timestampMillis) {
        start(i, timestampMillis);
        if (key == null) {
            keyStart[i] = -1;
            keyEnd[i] = -1;
        } else {
            keyStart[i] = put(key);
            keyEnd[i] = used;
        }
    }

    /**
     * Starts record {@code i}'s entry with a key the source holds as a buffer (null for none): its
     * remaining bytes are copied, the buffer's position is left as it is.
     */
    public void recordFromBuffer(int i, ByteBuffer key, long timestampMillis) {
        start(i, timestampMillis);
        if (key == null) {
            keyStart[i] = -1;
            keyEnd[i] = -1;
        } else {
            int length = key.remaining();
            int at = room(length);
            key.get(key.position(), bytes, at, length);
            used += length;
            keyStart[i] = at;
            keyEnd[i] = used;
        }
    }

    private void start(int i, long timestampMillis) {
        if (i >= keyStart.length) {
            int n = Math.max(i + 1, keyStart.length * 2);
            keyStart = Arrays.copyOf(keyStart, n);
            keyEnd = Arrays.copyOf(keyEnd, n);
            timestamp = Arrays.copyOf(timestamp, n);
            headerFirst = Arrays.copyOf(headerFirst, n);
            headerCount = Arrays.copyOf(headerCount, n);
        }
        timestamp[i] = timestampMillis;
        headerFirst[i] = headers;
        headerCount[i] = 0;
    }

    /** Adds a header to record {@code i}, the last one started. */
    public void header(int i, String name, byte[] value) {
        if (headers == nameStart.length) {
            int n = headers * 2;
            nameStart = Arrays.copyOf(nameStart, n);
            nameEnd = Arrays.copyOf(nameEnd, n);
            valueStart = Arrays.copyOf(valueStart, n);
            valueEnd = Arrays.copyOf(valueEnd, n);
        }
        nameStart[headers] = put(name.getBytes(StandardCharsets.UTF_8));
        nameEnd[headers] = used;
        if (value == null) {
            valueStart[headers] = -1;
            valueEnd[headers] = -1;
        } else {
            valueStart[headers] = put(value);
            valueEnd[headers] = used;
        }
        headers++;
        headerCount[i]++;
    }

    /**
     * The entry of the last header of record {@code i} named {@code name} (UTF-8), or -1 — Kafka
     * allows a name more than once; the last one wins, as in most clients' maps.
     */
    public int header(int i, byte[] name) {
        for (int j = headerFirst[i] + headerCount[i] - 1; j >= headerFirst[i]; j--) {
            if (Arrays.equals(bytes, nameStart[j], nameEnd[j], name, 0, name.length)) {
                return j;
            }
        }
        return -1;
    }

    private int put(byte[] b) {
        int at = room(b.length);
        System.arraycopy(b, 0, bytes, at, b.length);
        used += b.length;
        return at;
    }

    /** Makes room for {@code length} more bytes; returns where they go. */
    private int room(int length) {
        if (used + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(used + length, bytes.length * 2));
        }
        return used;
    }
}
