package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.it.TestCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A target table of the Kafka resilience ITs on a server of the test cluster, with the {@link
 * Json700#COLUMNS}: what it holds, checked against what was produced.
 */
final class StreamTable {
    final String name;
    final int server;

    StreamTable(String name, int server) {
        this.name = name;
        this.server = server;
    }

    long count() {
        return TestCluster.single(server, "SELECT count() FROM " + name);
    }

    /** Distinct messages: (partition, offset) pairs. */
    long distinct() {
        return TestCluster.single(server, "SELECT uniqExact(part, off) FROM " + name);
    }

    /**
     * Checks that the table holds every produced message — each partition's offsets {@code 0 ..
     * end-1}, no other — value by value: the row of the message at offset {@code o} of partition
     * {@code p} is event {@code o × partitions + p}, all copies of a message are identical, and the
     * sums over the distinct messages (ids, tenants, times, raw bytes, CityHash64 of each raw
     * message) are those of the events produced. Returns the number of duplicate rows.
     */
    long checkEveryMessage(Map<Integer, Long> ends, Json700.Sums produced, String what) {
        int partitions = ends.size();
        Map<Integer, List<Long>> expected = new TreeMap<>();
        Map<Integer, List<Long>> found = new TreeMap<>();
        long total = 0;
        for (Map.Entry<Integer, Long> e : ends.entrySet()) {
            long end = e.getValue();
            total += end;
            expected.put(e.getKey(), end == 0 ? List.of(0L) : List.of(end, 0L, end - 1));
            found.put(e.getKey(), List.of(0L));
        }
        for (List<Object> r :
                TestCluster.query(
                        server,
                        "SELECT part, uniqExact(off), min(off), max(off) FROM "
                                + name
                                + " GROUP BY part ORDER BY part")) {
            found.put(
                    ((Number) r.get(0)).intValue(),
                    List.of((Long) r.get(1), (Long) r.get(2), (Long) r.get(3)));
        }
        assertThat(found)
                .as("%s: per partition, distinct offsets, min and max (every message once)", what)
                .isEqualTo(expected);
        assertThat(total).as("%s: messages produced", what).isEqualTo(produced.count());
        List<Object> shape =
                TestCluster.query(
                                server,
                                "SELECT countIf(id != off * "
                                        + partitions
                                        + " + part), (SELECT count() FROM (SELECT part, off FROM "
                                        + name
                                        + " GROUP BY part, off HAVING uniqExact(ts, tenant, kind,"
                                        + " id, raw) > 1)) FROM "
                                        + name)
                        .get(0);
        assertThat(shape)
                .as(
                        "%s: rows whose message is not event offset × partitions + partition;"
                                + " messages whose copies differ",
                        what)
                .containsExactly(0L, 0L);
        List<Long> sums = new ArrayList<>();
        for (Object v : TestCluster.query(server, Json700.Sums.sql(name)).get(0)) {
            sums.add(((Number) v).longValue()); // UInt64 sums past 2^63 come as BigInteger
        }
        assertThat(sums)
                .as("%s: count and sums of ids, tenants, ts, raw bytes, raw hashes", what)
                .containsExactly(
                        produced.count(),
                        produced.ids(),
                        produced.tenants(),
                        produced.ts(),
                        produced.rawBytes(),
                        produced.rawHashes());
        long rows = count();
        log("%s: %,d rows, %,d messages, %,d duplicates", what, rows, total, rows - total);
        return rows - total;
    }

    /** One message found more than once: its partition, offset, and the runs that wrote it. */
    record Duplicate(int part, long off, Map<Integer, Long> copiesByRun) {
        long copies() {
            return copiesByRun.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Every message found more than once, with the {@code run} column of each copy. */
    List<Duplicate> duplicates() {
        Map<List<Long>, Map<Integer, Long>> byMessage = new TreeMap<>(StreamTable::compare);
        for (List<Object> r :
                TestCluster.query(
                        server,
                        "SELECT part, off, run, count() FROM "
                                + name
                                + " WHERE (part, off) IN (SELECT part, off FROM "
                                + name
                                + " GROUP BY part, off HAVING count() > 1)"
                                + " GROUP BY part, off, run")) {
            long part = ((Number) r.get(0)).longValue();
            byMessage
                    .computeIfAbsent(List.of(part, (Long) r.get(1)), k -> new TreeMap<>())
                    .put(((Number) r.get(2)).intValue(), (Long) r.get(3));
        }
        List<Duplicate> list = new ArrayList<>();
        byMessage.forEach(
                (k, runs) -> list.add(new Duplicate(k.get(0).intValue(), k.get(1), runs)));
        return list;
    }

    private static int compare(List<Long> a, List<Long> b) {
        int c = Long.compare(a.get(0), b.get(0));
        return c != 0 ? c : Long.compare(a.get(1), b.get(1));
    }

    /** The single number {@code sql} returns on the table's server. */
    long single(String sql) {
        return TestCluster.single(server, sql);
    }

    private static void log(String format, Object... args) {
        System.out.println("[StreamTable] " + String.format(Locale.ROOT, format, args));
    }
}
