package dev.sluice.pipeline.source.stdin;

import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.framing.Framer;
import dev.sluice.pipeline.source.framing.RecordReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * Standard input (or any stream that may block): one partition, {@value #PARTITION}, positions are
 * byte offsets. A pipe cannot be read again, so there is no resume and no replay ({@link
 * #replayable()} is false): the partition always starts afresh, and commits are accepted and not
 * kept.
 */
public final class StdinSource implements Source {
    public static final String PARTITION = "stdin";

    private final PipeInput input;
    private final RecordReader reader;
    private boolean ended;

    /**
     * @param in the stream, usually {@code System.in}
     * @param chunkBytes how much to read at a time
     */
    public StdinSource(InputStream in, Framer framer, int maxRecordBytes, int chunkBytes) {
        this.input = new PipeInput(in, chunkBytes, "sluice-stdin");
        this.reader =
                new RecordReader("stdin", PARTITION, input, framer, maxRecordBytes, chunkBytes);
    }

    @Override
    public String name() {
        return "stdin";
    }

    @Override
    public void open(PartitionListener listener) {
        listener.assigned(PARTITION, Checkpoint.NONE);
    }

    @Override
    public boolean replayable() {
        return false;
    }

    @Override
    public int poll(PolledRecords into, int maxRecords, long maxWaitNanos) {
        if (ended) {
            into.clear();
            return -1;
        }
        int n = reader.read(into, maxRecords, maxWaitNanos);
        ended = into.partitionEnd;
        return n;
    }

    @Override
    public void commit(Map<String, Checkpoint> checkpoints) {}

    @Override
    public long bytesRead() {
        return input.consumed();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
