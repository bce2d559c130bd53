package dev.sluice.kafka.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * One record for {@link TestKafka#produce}: value, optional key, timestamp (null: the producer's
 * clock), headers (names may repeat, as Kafka allows) and partition (null: chosen from the key).
 */
public record TestRecord(
        Integer partition, byte[] key, byte[] value, Long timestamp, List<Header> headers) {

    public TestRecord {
        headers = List.copyOf(headers);
    }

    public static TestRecord of(byte[] key, byte[] value) {
        return new TestRecord(null, key, value, null, List.of());
    }

    /** UTF-8 key and value; a null key stays null. */
    public static TestRecord of(String key, String value) {
        return of(utf8(key), utf8(value));
    }

    public static TestRecord value(String value) {
        return of(null, utf8(value));
    }

    public TestRecord withPartition(int p) {
        return new TestRecord(p, key, value, timestamp, headers);
    }

    public TestRecord withTimestamp(long epochMillis) {
        return new TestRecord(partition, key, value, epochMillis, headers);
    }

    public TestRecord withHeader(String name, byte[] headerValue) {
        List<Header> more = new ArrayList<>(headers);
        more.add(new RecordHeader(name, headerValue));
        return new TestRecord(partition, key, value, timestamp, more);
    }

    public TestRecord withHeader(String name, String headerValue) {
        return withHeader(name, utf8(headerValue));
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
