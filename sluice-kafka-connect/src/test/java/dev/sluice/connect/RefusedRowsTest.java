package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.sink.SealedBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class RefusedRowsTest {
    /** Records at offsets 10..14 of events-0; the batch's rows are 10, 11, 13, 14 (12 was bad). */
    private static List<SinkRecord> records() {
        List<SinkRecord> out = new ArrayList<>();
        for (long o : new long[] {10, 11, 13, 14}) {
            out.add(new SinkRecord("events", 0, null, null, null, "v" + o, o));
        }
        return out;
    }

    /** Remembers what it was given; its writes complete when told. */
    private static final class Reporter implements ErrantRecordReporter {
        final List<SinkRecord> records = new ArrayList<>();
        final List<Throwable> errors = new ArrayList<>();
        final List<CompletableFuture<Void>> writes = new ArrayList<>();

        @Override
        public Future<Void> report(SinkRecord record, Throwable error) {
            records.add(record);
            errors.add(error);
            CompletableFuture<Void> f = new CompletableFuture<>();
            writes.add(f);
            return f;
        }
    }

    private static SentBatch batch(List<SinkRecord> records) {
        return new SentBatch(
                10, 14, "events-0 offsets 10..14", null, records, new CompletableFuture<>());
    }

    @Test
    void aRefusedRowReachesTheReporterAsTheRecordItCameFromWithTheServersReason() {
        RefusedRows refused = new RefusedRows();
        SentBatch b = batch(records());
        refused.register(b);
        assertThat(refused.bisects()).isTrue();

        assertThat(
                        refused.reject(
                                new SealedBatch.RowSource("events-0 offsets 10..14", 2),
                                "{}".getBytes(),
                                "ClickHouse error 6 (CANNOT_PARSE_TEXT): Cannot parse string"))
                .isNull();
        assertThat(b.refusals()).isEqualTo(1);

        Reporter r = new Reporter();
        assertThat(b.reported(r, "events-0")).as("the dead-letter write is not done").isFalse();
        assertThat(r.records).extracting(SinkRecord::kafkaOffset).containsExactly(13L);
        assertThat(r.errors.get(0))
                .isInstanceOf(ConnectException.class)
                .hasMessage(
                        "events-0 offset 13: ClickHouse refused the row: ClickHouse error 6"
                                + " (CANNOT_PARSE_TEXT): Cannot parse string");
        r.writes.get(0).complete(null);
        assertThat(b.reported(r, "events-0")).isTrue();
        assertThat(r.records).as("reported once").hasSize(1);
    }

    @Test
    void aFailedDeadLetterWriteKeepsTheBatchFromBeingCommitted() {
        SentBatch b = batch(records());
        assertThat(b.refused(0, "refused")).isNull();
        Reporter r = new Reporter();
        b.reported(r, "events-0");
        r.writes.get(0).completeExceptionally(new IllegalStateException("broker gone"));
        assertThatThrownBy(() -> b.reported(r, "events-0"))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("events-0 offsets 10..14")
                .hasMessageContaining("dead-letter topic: broker gone");
    }

    @Test
    void aRowOfABatchNoLongerTrackedFailsThatBatchInsteadOfVanishing() {
        RefusedRows refused = new RefusedRows();
        SentBatch b = batch(records());
        refused.register(b);
        refused.unregister(b);
        assertThat(
                        refused.reject(
                                new SealedBatch.RowSource("events-0 offsets 10..14", 0), null, "x"))
                .contains("no longer this task's");
        assertThat(b.refusals()).isZero();
    }

    @Test
    void anIndexOutsideTheBatchOrABatchWithoutRecordsIsAReasonNotARow() {
        assertThat(batch(records()).refused(4, "x")).contains("row 4").contains("no record");
        assertThat(batch(null).refused(0, "x")).contains("no record");
    }

    @Test
    void underToleranceNoneARefusedRowFailsTheBatchSayingHowToHaveItBisected() {
        var failing = RefusedRows.failing();
        assertThat(failing.bisects()).isFalse();
        assertThat(failing.reject(new SealedBatch.RowSource("d", 0), null, "why")).isEqualTo("why");
        assertThat(failing.howToBisect())
                .contains("nothing of it was written")
                .contains("errors.tolerance=all");
    }
}
