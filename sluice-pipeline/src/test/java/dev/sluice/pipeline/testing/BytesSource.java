package dev.sluice.pipeline.testing;

import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One partition of binary records (Avro messages, as a Kafka partition would hand them over), at
 * positions 0, 1, 2... like offsets. Thread-safe for the test's reads of commits.
 */
public final class BytesSource implements Source {
    private final String partition;
    private final List<byte[]> records;
    private final Map<String, Long> commits = new ConcurrentHashMap<>();
    private int next;

    public BytesSource(String partition, List<byte[]> records) {
        this.partition = partition;
        this.records = List.copyOf(records);
    }

    @Override
    public String name() {
        return "bytes";
    }

    @Override
    public void open(PartitionListener listener) {
        listener.assigned(partition, Checkpoint.NONE);
    }

    @Override
    public synchronized int poll(PolledRecords into, int maxRecords, long maxWaitNanos) {
        into.clear();
        into.source = name();
        into.partition = partition;
        if (next == records.size()) {
            return -1;
        }
        into.partitionStart = next == 0;
        int at = 0;
        while (into.count < maxRecords && next < records.size()) {
            byte[] r = records.get(next);
            into.ensureDataCapacity(at + r.length);
            System.arraycopy(r, 0, into.data, at, r.length);
            into.add(at, at + r.length, next, 0);
            at += r.length;
            next++;
        }
        into.endPosition = next;
        into.partitionEnd = next == records.size();
        return into.count;
    }

    @Override
    public void commit(Map<String, Checkpoint> checkpoints) {
        checkpoints.forEach((p, cp) -> commits.put(p, cp.position()));
    }

    public Map<String, Long> commits() {
        return Map.copyOf(commits);
    }

    @Override
    public void close() {}
}
