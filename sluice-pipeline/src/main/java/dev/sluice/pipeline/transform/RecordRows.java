package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.expr.RawRecords;
import dev.sluice.pipeline.source.PolledRecords;

/**
 * {@code raw()}'s records for rows of a block: block row {@code first + j} came from record {@code
 * records[j]} of a {@link PolledRecords}. The bytes are the batch's own (no copy).
 */
final class RecordRows implements RawRecords {
    private PolledRecords batch;
    private int first;
    private int[] records;

    RecordRows bind(PolledRecords batch, int first, int[] records) {
        this.batch = batch;
        this.first = first;
        this.records = records;
        return this;
    }

    @Override
    public byte[] bytes() {
        return batch.data;
    }

    @Override
    public int start(int row) {
        return batch.start[records[row - first]];
    }

    @Override
    public int end(int row) {
        return batch.end[records[row - first]];
    }
}
