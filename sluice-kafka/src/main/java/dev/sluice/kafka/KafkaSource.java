package dev.sluice.kafka;

import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PartitionListener;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.RecordMetadata;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.time.Clock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.header.Header;

/**
 * One pipeline thread's member of the pipeline's consumer group. Its partitions are the ones the
 * group assigns it; each is a partition of the pipeline named {@code topic/partition}, its
 * positions are offsets.
 *
 * <ul>
 *   <li><b>Positions live in the group</b>: on assignment, the committed offset and its metadata
 *       ({@link OffsetMetadata}: the run and the boundaries of the batches past the offset) are
 *       handed to the runtime as the partition's checkpoint, so a replay on any host re-creates the
 *       same batches with the same tokens. Commits ({@code commitSync}, one call for all
 *       partitions) come only from the runtime, at positions every record before which is written
 *       (property 1) — never auto-commit.
 *   <li><b>Polling never stops</b>: under backpressure the runtime pauses the source — every
 *       partition, and any assigned while paused — and keeps calling {@link #idle}, which polls, so
 *       the member keeps its place in the group however long ClickHouse stalls (property 3).
 *   <li><b>Rebalances</b> reach the runtime from inside {@code poll}: a revoked partition is
 *       sealed, awaited and committed before the consumer lets it go; records of it still buffered
 *       here are dropped (its next owner reads them from the commit).
 * </ul>
 *
 * <p>Records are fetched in {@code poll}'s batches and handed over one partition at a time, each
 * with its key, timestamp and headers ({@link RecordMetadata}: the {@code _key}, {@code
 * _timestamp}, {@code _topic}, {@code _partition}, {@code _offset} and {@code _header.NAME}
 * fields); a record without a value (a tombstone) or longer than {@code max_record_bytes} is handed
 * over as an error record (with its topic, partition and offset) for the error policy. Used by its
 * pipeline thread only, as a {@code KafkaConsumer} must be.
 */
public final class KafkaSource implements Source {
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration COMMITTED_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaSourceConfig config;
    private final Function<Properties, Consumer<ByteBuffer, ByteBuffer>> consumers;
    private final Clock clock;
    private KafkaMetrics metrics;
    private final String reader;
    private final Map<TopicPartition, Fetched> buffered = new LinkedHashMap<>();
    private final Map<TopicPartition, String> names = new HashMap<>();
    private final Map<String, TopicPartition> byName = new HashMap<>();
    private Consumer<ByteBuffer, ByteBuffer> consumer;
    private PartitionListener listener;
    private String protocol;
    private boolean paused;
    private boolean closing;
    private volatile boolean assignedOnce;
    private long openedNanos;
    private volatile long bytesRead;

    /**
     * @param consumers makes the consumer from its properties (a real {@code KafkaConsumer}; tests
     *     may wrap it)
     * @param reader this member's name among the pipeline's threads, for its client id
     */
    KafkaSource(
            KafkaSourceConfig config,
            Function<Properties, Consumer<ByteBuffer, ByteBuffer>> consumers,
            Clock clock,
            KafkaMetrics metrics,
            String reader) {
        this.config = config;
        this.consumers = consumers;
        this.clock = clock;
        this.metrics = metrics;
        this.reader = reader;
        this.protocol = config.groupProtocol();
    }

    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public void registerMetrics(PrometheusRegistry registry) {
        metrics = KafkaMetrics.of(registry, config.pipeline());
    }

    @Override
    public boolean partitionsInterleave() {
        return true; // many partitions, few inserts: a batch gathers every partition it reads
    }

    @Override
    public String notReady() {
        return assignedOnce
                ? null
                : "waiting for the first assignment of group " + config.groupId();
    }

    @Override
    public void open(PartitionListener l) throws IOException {
        this.listener = l;
        this.openedNanos = clock.nanoTime();
        connect();
    }

    private void connect() throws IOException {
        try {
            consumer = consumers.apply(config.consumerProperties(protocol, reader));
            Rebalances rebalances = new Rebalances();
            if (config.topicPattern() != null) {
                consumer.subscribe(Pattern.compile(config.topicPattern()), rebalances);
            } else {
                consumer.subscribe(config.topics(), rebalances);
            }
        } catch (KafkaException e) {
            throw new IOException("cannot start the Kafka consumer: " + e.getMessage(), e);
        }
    }

    @Override
    public int poll(PolledRecords into, int maxRecords, long maxWaitNanos) throws IOException {
        into.clear();
        into.source = "kafka";
        if (buffered.isEmpty()) {
            fetch(maxWaitNanos);
        }
        Iterator<Map.Entry<TopicPartition, Fetched>> it = buffered.entrySet().iterator();
        if (!it.hasNext()) {
            return 0;
        }
        Map.Entry<TopicPartition, Fetched> next = it.next();
        TopicPartition tp = next.getKey();
        Fetched fetched = next.getValue();
        into.partition = names.get(tp);
        RecordMetadata meta = into.meta;
        if (meta == null) {
            meta = into.meta = new RecordMetadata();
        }
        meta.clear();
        meta.topic = tp.topic();
        meta.partition = tp.partition();
        int offset = 0;
        long read = 0;
        int maxBytes = config.maxRecordBytes();
        while (into.count < maxRecords) {
            ConsumerRecord<ByteBuffer, ByteBuffer> r = fetched.next();
            if (r == null) {
                break;
            }
            int index = into.count;
            meta.recordFromBuffer(index, r.key(), r.timestamp());
            Header[] headers = r.headers().toArray(); // a shared empty array when there are none
            for (Header h : headers) {
                meta.header(index, h.key(), h.value());
            }
            ByteBuffer value = r.value();
            if (value == null) {
                into.addError(
                        offset, offset, r.offset(), 0, "a record with no value (a tombstone)");
            } else if (value.remaining() > maxBytes) {
                into.addError(
                        offset,
                        offset,
                        r.offset(),
                        0,
                        "the record's value is "
                                + value.remaining()
                                + " bytes, more than max_record_bytes ("
                                + maxBytes
                                + ")");
            } else {
                // The one copy of the value: from the fetched bytes (the deserializer hands over
                // a view of them) into the batch.
                int length = value.remaining();
                into.ensureDataCapacity(offset + length);
                value.get(value.position(), into.data, offset, length);
                into.add(offset, offset + length, r.offset(), 0);
                offset += length;
                read += length;
            }
            into.endPosition = r.offset() + 1;
        }
        // The next partition's records go next: one busy partition does not starve the others.
        it.remove();
        if (!fetched.isEmpty()) {
            buffered.put(tp, fetched);
        }
        bytesRead += read;
        return into.count;
    }

    @Override
    public void idle(long maxWaitNanos) throws IOException {
        fetch(maxWaitNanos);
    }

    /** Polls the consumer (callbacks included) and keeps what it returns, by partition. */
    private void fetch(long waitNanos) throws IOException {
        ConsumerRecords<ByteBuffer, ByteBuffer> records;
        try {
            records = consumer.poll(Duration.ofNanos(Math.max(0, waitNanos)));
        } catch (OffsetOutOfRangeException e) {
            deletedBeforeRead(e.offsetOutOfRangePartitions());
            return;
        } catch (NoOffsetForPartitionException e) {
            place(e.partitions());
            return;
        } catch (UnsupportedVersionException e) {
            if (!protocol.equals("consumer") || assignedOnce) {
                throw new IOException("Kafka: " + e.getMessage(), e);
            }
            // The broker does not speak the consumer rebalance protocol (KIP-848): fall back to
            // the classic one with cooperative-sticky assignment.
            listener.warning(
                    "the Kafka brokers at "
                            + config.bootstrapServers()
                            + " do not support group.protocol=consumer ("
                            + e.getMessage()
                            + "); using the classic protocol with cooperative-sticky assignment");
            closeConsumer();
            protocol = "classic";
            connect();
            return;
        } catch (KafkaException e) {
            throw new IOException("Kafka: " + e.getMessage(), e);
        }
        for (TopicPartition tp : records.partitions()) {
            if (!names.containsKey(tp)) {
                continue; // revoked in this very poll
            }
            buffered.computeIfAbsent(tp, k -> new Fetched()).add(records.records(tp));
        }
        metrics.lag(consumer);
        if (!assignedOnce
                && clock.nanoTime() - openedNanos > config.assignmentTimeout().toNanos()) {
            throw new IOException(
                    "no partitions of "
                            + config.describeTopics()
                            + " were assigned to group "
                            + config.groupId()
                            + " within "
                            + config.assignmentTimeout()
                            + " (is the broker at "
                            + config.bootstrapServers()
                            + " reachable, and do the topics exist?)");
        }
    }

    /**
     * Committed offsets the broker no longer has: the records between them and the log's start were
     * deleted (retention) before they were read. That is loss, though not Sluice's: it is reported,
     * with the offsets, and reading goes on from the log's start.
     */
    private void deletedBeforeRead(Map<TopicPartition, Long> outOfRange) throws IOException {
        Map<TopicPartition, Long> starts;
        try {
            starts = consumer.beginningOffsets(outOfRange.keySet(), COMMITTED_TIMEOUT);
        } catch (KafkaException e) {
            throw new IOException("Kafka: " + e.getMessage(), e);
        }
        for (Map.Entry<TopicPartition, Long> e : outOfRange.entrySet()) {
            long start = starts.getOrDefault(e.getKey(), -1L);
            metrics.deleted(e.getKey(), Math.max(0, start - e.getValue()));
            listener.warning(
                    partitionName(e.getKey())
                            + ": offsets "
                            + e.getValue()
                            + " to "
                            + (start - 1)
                            + " were deleted by the broker (retention) before they were read; "
                            + (start >= 0
                                    ? "reading from offset " + start
                                    : "reading from the start"));
        }
        consumer.seekToBeginning(outOfRange.keySet());
    }

    /** Partitions the group never committed start where {@code start} says. */
    private void place(Collection<TopicPartition> tps) {
        if (config.start().equals("latest")) {
            consumer.seekToEnd(tps);
        } else {
            consumer.seekToBeginning(tps);
        }
    }

    @Override
    public void pause() {
        paused = true;
        consumer.pause(consumer.assignment());
    }

    @Override
    public void resume() {
        paused = false;
        consumer.resume(consumer.assignment());
    }

    @Override
    public void commit(Map<String, Checkpoint> checkpoints) throws IOException {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (Map.Entry<String, Checkpoint> e : checkpoints.entrySet()) {
            TopicPartition tp = byName.get(e.getKey());
            Checkpoint cp = e.getValue();
            if (tp == null || cp.position() < 0) {
                continue;
            }
            offsets.put(tp, new OffsetAndMetadata(cp.position(), OffsetMetadata.encode(cp)));
        }
        if (offsets.isEmpty()) {
            return;
        }
        long start = clock.nanoTime();
        try {
            consumer.commitSync(offsets, COMMIT_TIMEOUT);
        } catch (KafkaException e) {
            throw new IOException(
                    "committing the offsets of "
                            + offsets.keySet()
                            + " to group "
                            + config.groupId()
                            + " failed: "
                            + e,
                    e);
        }
        metrics.commitSeconds((clock.nanoTime() - start) / 1e9);
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public void close() {
        closing = true;
        closeConsumer();
    }

    private void closeConsumer() {
        if (consumer != null) {
            try {
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
            } catch (KafkaException e) {
                // Leaving the group late only delays the next rebalance; commits were done.
            }
            consumer = null;
        }
        buffered.clear();
    }

    /** The partitions this source owns now, by their pipeline names. */
    Collection<String> owned() {
        return List.copyOf(byName.keySet());
    }

    private List<String> forget(Collection<TopicPartition> tps) {
        metrics.forget(tps);
        List<String> gone = new ArrayList<>();
        for (TopicPartition tp : tps) {
            buffered.remove(tp);
            String name = names.remove(tp);
            if (name != null) {
                byName.remove(name);
                gone.add(name);
            }
        }
        return gone;
    }

    static String partitionName(TopicPartition tp) {
        return tp.topic() + "/" + tp.partition();
    }

    /** The group's decisions, relayed to the runtime on the pipeline thread (inside poll). */
    private final class Rebalances implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> tps) {
            assignedOnce = true;
            metrics.rebalance("assigned");
            if (tps.isEmpty() || closing) {
                return;
            }
            if (paused) {
                consumer.pause(tps); // paused for every partition, those assigned later too
            }
            Map<TopicPartition, OffsetAndMetadata> committed =
                    consumer.committed(new HashSet<>(tps), COMMITTED_TIMEOUT);
            for (TopicPartition tp : tps) {
                String name = partitionName(tp);
                names.put(tp, name);
                byName.put(name, tp);
                OffsetAndMetadata om = committed.get(tp);
                Checkpoint cp =
                        om == null
                                ? Checkpoint.NONE
                                : OffsetMetadata.decode(name, om.offset(), om.metadata());
                if (om != null) {
                    // Read from the commit, whatever this consumer fetched of it before.
                    consumer.seek(tp, om.offset());
                } else {
                    place(List.of(tp));
                }
                listener.assigned(name, cp);
            }
            metrics.owned(KafkaSource.this, names.size());
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> tps) {
            metrics.rebalance("revoked");
            if (tps.isEmpty()) {
                return;
            }
            List<String> mine = new ArrayList<>();
            for (TopicPartition tp : tps) {
                buffered.remove(tp); // not handed over: the next owner reads them from the commit
                String name = names.get(tp);
                if (name != null) {
                    mine.add(name);
                }
            }
            if (!closing) {
                listener.revoking(mine); // seals, awaits and commits them through commit()
            }
            forget(tps);
            metrics.owned(KafkaSource.this, names.size());
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> tps) {
            metrics.rebalance("lost");
            List<String> gone = forget(tps);
            if (!closing && !gone.isEmpty()) {
                listener.lost(gone);
            }
            metrics.owned(KafkaSource.this, names.size());
        }
    }

    /**
     * One partition's fetched records not yet handed over, in order: the lists {@code poll}
     * returned, kept as they are (no record is copied from list to list) with a cursor into the
     * first.
     */
    private static final class Fetched {
        private final ArrayDeque<List<ConsumerRecord<ByteBuffer, ByteBuffer>>> lists =
                new ArrayDeque<>(2);
        private int next;

        void add(List<ConsumerRecord<ByteBuffer, ByteBuffer>> records) {
            if (!records.isEmpty()) {
                lists.add(records);
            }
        }

        /** The next record, or null when there is none. */
        ConsumerRecord<ByteBuffer, ByteBuffer> next() {
            List<ConsumerRecord<ByteBuffer, ByteBuffer>> first = lists.peekFirst();
            if (first == null) {
                return null;
            }
            ConsumerRecord<ByteBuffer, ByteBuffer> r = first.get(next++);
            if (next == first.size()) {
                lists.pollFirst();
                next = 0;
            }
            return r;
        }

        boolean isEmpty() {
            return lists.isEmpty();
        }
    }
}
