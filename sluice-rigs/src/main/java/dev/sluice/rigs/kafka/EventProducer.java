package dev.sluice.rigs.kafka;

import dev.sluice.rigs.data.EventsData;
import dev.sluice.rigs.data.EventsFiles;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces the events rows as JSON records (the five columns by name), timestamped at send time: as
 * fast as possible for a backlog, or at a fixed rate for latency.
 */
final class EventProducer implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final EventsData data;
    private final byte[][] lines;

    EventProducer(String bootstrap, EventsData data) {
        this.producer =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrap,
                                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                                ByteArraySerializer.class,
                                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                                ByteArraySerializer.class,
                                ProducerConfig.ACKS_CONFIG,
                                "all",
                                ProducerConfig.LINGER_MS_CONFIG,
                                5,
                                ProducerConfig.BATCH_SIZE_CONFIG,
                                512 * 1024,
                                ProducerConfig.BUFFER_MEMORY_CONFIG,
                                128L * 1024 * 1024));
        this.data = data;
        this.lines = new byte[data.rows][];
        for (int r = 0; r < data.rows; r++) {
            lines[r] = line(data, r);
        }
    }

    static byte[] line(EventsData d, int r) {
        StringBuilder sb = new StringBuilder(320);
        sb.append("{\"ts\":\"")
                .append(EventsFiles.dateTime(d.ts[r]))
                .append("\",\"tenant\":")
                .append(d.tenant[r]);
        sb.append(",\"kind\":\"")
                .append(new String(d.kinds[d.kindIndex[r]], StandardCharsets.UTF_8))
                .append('"');
        sb.append(",\"id\":").append(Long.toUnsignedString(d.id[r])).append(",\"payload\":\"");
        for (byte b : d.payloads[d.payloadIndex[r]]) {
            char c = (char) (b & 0xff);
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Waits until the producer knows {@code topic}'s partitions, so that sending starts at once.
     */
    void connect(String topic) {
        producer.partitionsFor(topic);
    }

    /** Writes the records {@link #backlog} would send, one per line, to {@code file}. */
    void writeFile(Path file, long count) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (long i = 0; i < count; i++) {
                out.write(lines[(int) (i % data.rows)]);
                out.write('\n');
            }
        }
    }

    /** Sends {@code count} records as fast as the broker takes them; returns records/s. */
    double backlog(String topic, long count) {
        long t0 = System.nanoTime();
        for (long i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, lines[(int) (i % data.rows)]));
        }
        producer.flush();
        return count / ((System.nanoTime() - t0) / 1e9);
    }

    /** What {@link #paced} reached. */
    record Paced(long sent, long behindMaxMillis) {}

    /**
     * Sends at {@code rowsPerSecond} until {@code stop} is set. Each record is stamped by the
     * producer when it is handed to {@code send} (CreateTime), so a burst sent late after the
     * thread lost its core carries its real send time; how late the producer fell behind its
     * schedule at most is returned with the count.
     */
    Paced paced(String topic, long rowsPerSecond, AtomicBoolean stop) {
        long start = System.nanoTime();
        long sent = 0;
        long behindMax = 0;
        while (!stop.get()) {
            long due = (long) ((System.nanoTime() - start) / 1e9 * rowsPerSecond);
            if (sent >= due) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                continue;
            }
            behindMax = Math.max(behindMax, (due - sent) * 1000 / rowsPerSecond);
            for (; sent < due && !stop.get(); sent++) {
                producer.send(new ProducerRecord<>(topic, lines[(int) (sent % data.rows)]));
            }
        }
        producer.flush();
        return new Paced(sent, behindMax);
    }

    @Override
    public void close() {
        producer.close();
    }
}
