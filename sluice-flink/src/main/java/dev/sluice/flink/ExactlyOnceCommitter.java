package dev.sluice.flink;

import dev.sluice.pipeline.writer.ClickHouseWriter;
import dev.sluice.pipeline.writer.Rows;
import dev.sluice.pipeline.writer.WriteOptions;
import dev.sluice.pipeline.writer.Written;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * Writes the {@link PendingBatch}es of a completed checkpoint, each as one INSERT with its token
 * and its {@code now()}, and returns only once ClickHouse acknowledged all of them. A batch that
 * cannot be written fails the job (never dropped): the restore commits the checkpoint's batches
 * again, and a deduplicating table drops those already written.
 */
final class ExactlyOnceCommitter implements Committer<PendingBatch> {
    private final ClickHouseWriter writer;
    private final String what;

    ExactlyOnceCommitter(ClickHouseWriter writer, String what) {
        this.writer = writer;
        this.what = what;
    }

    @Override
    public void commit(Collection<CommitRequest<PendingBatch>> requests)
            throws IOException, InterruptedException {
        List<CompletableFuture<Written>> sent = new ArrayList<>(requests.size());
        for (CommitRequest<PendingBatch> r : requests) {
            PendingBatch b = r.getCommittable();
            Rows rows = writer.newRows();
            try {
                for (Map<String, Object> row : b.rows()) {
                    rows.add(row);
                }
                sent.add(
                        writer.submit(
                                rows,
                                WriteOptions.token(b.token())
                                        .nowSeconds(b.nowSeconds())
                                        .describedAs("pending batch " + b.token())));
            } catch (RuntimeException e) {
                throw new IOException(what + ": batch " + b.token() + ": " + e.getMessage(), e);
            }
        }
        for (CompletableFuture<Written> f : sent) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw new IOException(what + ": " + e.getCause().getMessage(), e.getCause());
            }
        }
    }

    @Override
    public void close() {
        writer.close(Duration.ofSeconds(10));
    }
}
