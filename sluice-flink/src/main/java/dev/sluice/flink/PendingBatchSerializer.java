package dev.sluice.flink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * {@link PendingBatch}es in checkpoints: the token, {@code now()} and the rows' field maps with
 * Java serialization (the values are what {@link RecordFields} give: strings, numbers, {@code
 * BigDecimal}, {@code java.time} values, byte arrays, lists and maps of them).
 */
final class PendingBatchSerializer implements SimpleVersionedSerializer<PendingBatch> {
    @Override
    public int getVersion() {
        return 1;
    }

    @Override
    public byte[] serialize(PendingBatch b) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeUTF(b.token());
            out.writeLong(b.nowSeconds());
            out.writeInt(b.rows().size());
            for (Map<String, Object> row : b.rows()) {
                out.writeInt(row.size());
                for (Map.Entry<String, Object> e : row.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeObject(e.getValue());
                }
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public PendingBatch deserialize(int version, byte[] serialized) throws IOException {
        if (version != 1) {
            throw new IOException("unknown version " + version + " of a pending ClickHouse batch");
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialized))) {
            String token = in.readUTF();
            long now = in.readLong();
            int n = in.readInt();
            List<Map<String, Object>> rows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int fields = in.readInt();
                Map<String, Object> row = new LinkedHashMap<>();
                for (int f = 0; f < fields; f++) {
                    row.put(in.readUTF(), in.readObject());
                }
                rows.add(row);
            }
            return new PendingBatch(token, now, rows);
        } catch (ClassNotFoundException e) {
            throw new IOException("a pending ClickHouse batch holds an unknown class", e);
        }
    }
}
