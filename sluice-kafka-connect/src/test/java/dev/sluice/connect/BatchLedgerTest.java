package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class BatchLedgerTest {
    private static final TopicPartition TP = new TopicPartition("events", 0);

    private static BatchLedger.Entry e(long first, long last, long now) {
        return new BatchLedger.Entry(TP, first, last, now);
    }

    @Test
    void theLaterOfTwoOverlappingEntriesWinsAndTheResultIsInOffsetOrder() {
        // recorded in this order: 30..39, 10..29, then 10..19 (a replay cut short) and 20..24
        List<BatchLedger.Entry> recorded =
                List.of(e(30, 39, 3), e(10, 29, 1), e(10, 19, 5), e(20, 24, 6));
        assertThat(BatchLedger.replayable(recorded, 10))
                .containsExactly(e(10, 19, 5), e(20, 24, 6), e(30, 39, 3));
    }

    @Test
    void entriesBeginningBeforeTheStartingOffsetAreLeftOut() {
        // 0..9 is partly committed (the replay starts at 5): it cannot be re-created whole
        assertThat(BatchLedger.replayable(List.of(e(0, 9, 1), e(10, 19, 2)), 5))
                .containsExactly(e(10, 19, 2));
    }

    @Test
    void namesAndTopicsAreQuotedAsStringLiterals() {
        assertThat(BatchLedger.quote("it's a \\ test")).isEqualTo("'it\\'s a \\\\ test'");
    }

    @Test
    void theTableIsPartitionedByDayAndOrderedForTheLookUpOfAPartition() {
        assertThat(BatchLedger.createStatement("db.ledger"))
                .startsWith("CREATE TABLE IF NOT EXISTS db.ledger (")
                .contains("PARTITION BY toYYYYMMDD(toDateTime(intDiv(recorded_ms, 1000)))")
                .contains("ORDER BY (connector, topic, partition, last)");
    }
}
