package dev.sluice.cli;

import dev.sluice.kafka.it.TestKafka;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces {@link Json700} events {@code 0, 1, 2, ...} to a topic, event {@code i} to partition
 * {@code i mod partitions}, with one idempotent producer ({@code acks=all}): a partition's offsets
 * are then its events in order, event {@code i} at offset {@code i / partitions} — which the checks
 * verify row by row. Either all at once ({@link #produce}) or at a steady rate in the background
 * ({@link #startAtRate}) while the test kills, restarts and stalls things.
 */
final class StreamProducer implements AutoCloseable {
    private final String topic;
    private final int partitions;
    private final Json700 events;
    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicReference<Exception> firstError = new AtomicReference<>();
    private volatile Json700.Sums sums = new Json700.Sums(0, 0, 0, 0, 0, 0);
    private volatile boolean stop;
    private Thread background;

    StreamProducer(String topic, int partitions, Json700 events) {
        this.topic = topic;
        this.partitions = partitions;
        this.events = events;
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        c.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        c.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        c.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        c.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        // One request at a time, with time to spare on a loaded machine: a request that timed out
        // while others were in flight made the idempotent producer resend from sequence 0, which
        // the broker refused for good (OutOfOrderSequenceException, retried until the delivery
        // timeout). Through a broker restart, sends are retried (in order) for up to 2 minutes.
        c.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        c.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000);
        c.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        c.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000);
        this.producer = new KafkaProducer<>(c);
    }

    /** Sends events up to (not including) {@code end} and waits until all are acknowledged. */
    void produce(long end) {
        while (sent.get() < end && firstError.get() == null) {
            send(sent.get());
        }
        flush();
    }

    /**
     * Sends {@code perSecond} events a second in the background, in 20 ms steps, until {@code
     * limit} events in all were sent or {@link #stopAndFlush}.
     */
    void startAtRate(long perSecond, long limit) {
        background =
                Thread.ofPlatform()
                        .daemon()
                        .name("producer-" + topic)
                        .start(
                                () -> {
                                    long start = System.nanoTime();
                                    long base = sent.get();
                                    while (!stop
                                            && sent.get() < limit
                                            && firstError.get() == null) {
                                        long due =
                                                Math.min(
                                                        limit,
                                                        base
                                                                + (System.nanoTime() - start)
                                                                        / 1_000_000
                                                                        * perSecond
                                                                        / 1000);
                                        while (sent.get() < due && !stop) {
                                            send(sent.get());
                                        }
                                        try {
                                            Thread.sleep(20);
                                        } catch (InterruptedException e) {
                                            return;
                                        }
                                    }
                                });
    }

    /**
     * Waits for the background sending to reach its limit, then until every event sent is
     * acknowledged; returns how many were.
     */
    long finish() throws InterruptedException {
        if (background != null) {
            background.join();
        }
        flush();
        return acked.get();
    }

    /** Stops the background sending now; returns once every event sent is acknowledged. */
    long stopAndFlush() throws InterruptedException {
        stop = true;
        return finish();
    }

    private void send(long i) {
        byte[] value = events.record(i);
        sums = sums.plus(i, events.tenant(i), events.ts(i), value);
        sent.incrementAndGet();
        producer.send(
                new ProducerRecord<>(topic, (int) (i % partitions), null, value),
                (meta, e) -> {
                    if (e != null) {
                        firstError.compareAndSet(null, e);
                    } else {
                        acked.incrementAndGet();
                    }
                });
    }

    private void flush() {
        producer.flush();
        if (firstError.get() != null) {
            throw new IllegalStateException(
                    "producing to " + topic + " failed: " + firstError.get(), firstError.get());
        }
        if (acked.get() != sent.get()) {
            throw new IllegalStateException(
                    "producing to " + topic + ": " + acked.get() + " of " + sent.get() + " acked");
        }
    }

    /** Events sent so far (acknowledged or not). */
    long sent() {
        return sent.get();
    }

    /** The sums of every event sent: after {@link #stopAndFlush}, of every event produced. */
    Json700.Sums sums() {
        return sums;
    }

    @Override
    public void close() {
        stop = true;
        producer.close();
    }
}
