package dev.sluice.flink;

import java.io.IOException;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The exactly-once mode of {@link ClickHouseSink} ({@link
 * ClickHouseSink.Builder#buildExactlyOnce}): rows are kept in Flink's checkpoint and written only
 * once their checkpoint completed, each batch with a token of its own and a fixed {@code now()}. A
 * failure after the checkpoint and before or during the commit makes the restored job commit the
 * same batches again — the same blocks with the same tokens — which a table that deduplicates
 * drops: ReplicatedMergeTree (by the block's hash; by {@code insert_deduplication_token} from
 * 22.2), or a MergeTree with {@code non_replicated_deduplication_window} on 22.2+. On a table that
 * does not deduplicate this mode is at least once, like the default one. Rows appear in the table
 * one checkpoint later, and a checkpoint holds every row since the one before.
 *
 * @param <T> the stream's element type
 */
public final class ClickHouseExactlyOnceSink<T>
        implements Sink<T>, SupportsCommitter<PendingBatch> {
    private static final long serialVersionUID = 1L;

    private final ClickHouseSink<T> options;

    ClickHouseExactlyOnceSink(ClickHouseSink<T> options) {
        this.options = options;
    }

    @Override
    public CommittingSinkWriter<T, PendingBatch> createWriter(WriterInitContext context)
            throws IOException {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        String what = "subtask " + subtask + " of the ClickHouse sink into " + options.table();
        return new ExactlyOnceWriter<>(
                options.fields(),
                options.openWriter("flink-check-" + subtask),
                options.chunkRows(),
                "flink/" + context.getJobInfo().getJobId() + "/" + subtask + "/",
                what,
                context.metricGroup().getNumRecordsOutErrorsCounter());
    }

    @Override
    public Committer<PendingBatch> createCommitter(CommitterInitContext context)
            throws IOException {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        return new ExactlyOnceCommitter(
                options.openWriter("flink-commit-" + subtask),
                "committer " + subtask + " of the ClickHouse sink into " + options.table());
    }

    @Override
    public SimpleVersionedSerializer<PendingBatch> getCommittableSerializer() {
        return new PendingBatchSerializer();
    }
}
