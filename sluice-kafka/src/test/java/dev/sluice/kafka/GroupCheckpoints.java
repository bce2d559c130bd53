package dev.sluice.kafka;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.source.Checkpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What a consumer group holds for each partition, read as the Kafka source reads it on assignment
 * ({@link OffsetMetadata}): the committed offset and the batches past it that the partition's next
 * owner replays. For the tests of other modules (the test-jar) that must tell which ranges a crash
 * made replayable.
 */
public final class GroupCheckpoints {
    private GroupCheckpoints() {}

    /** A recorded batch: the offsets of its first and last record. */
    public record Range(long first, long last) {
        public boolean covers(long offset) {
            return offset >= first && offset <= last;
        }

        public long records() {
            return last - first + 1;
        }

        @Override
        public String toString() {
            return first + "-" + last;
        }
    }

    /**
     * A partition's commit.
     *
     * @param offset the committed offset: every record before it is written
     * @param run the run id of the partition's deduplication tokens, or null
     * @param inFlight the batches at or after {@code offset} that may be in ClickHouse, in order
     */
    public record Committed(long offset, String run, List<Range> inFlight) {
        public Committed {
            inFlight = List.copyOf(inFlight);
        }

        /** True when {@code offset} lies in one of the batches in flight. */
        public boolean inFlight(long offset) {
            for (Range r : inFlight) {
                if (r.covers(offset)) {
                    return true;
                }
            }
            return false;
        }

        /** Records in the batches in flight. */
        public long inFlightRecords() {
            return inFlight.stream().mapToLong(Range::records).sum();
        }
    }

    /** The group's commits (partitions it never committed are absent), with one admin call. */
    public static Map<TopicPartition, Committed> read(Admin admin, String group) {
        Map<TopicPartition, OffsetAndMetadata> offsets;
        try {
            offsets =
                    admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "committed offsets of group " + group + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "committed offsets of group " + group + ": no answer within 60 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        Map<TopicPartition, Committed> committed = new HashMap<>();
        offsets.forEach(
                (tp, om) -> {
                    if (om != null) {
                        Checkpoint cp =
                                OffsetMetadata.decode(
                                        KafkaSource.partitionName(tp), om.offset(), om.metadata());
                        List<Range> ranges = new ArrayList<>();
                        for (LedgerEntry e : cp.inFlight()) {
                            ranges.add(new Range(e.first(), e.last()));
                        }
                        committed.put(tp, new Committed(cp.position(), cp.run(), ranges));
                    }
                });
        return committed;
    }
}
