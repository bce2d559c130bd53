package dev.sluice.cli;

import dev.sluice.clickhouse.it.TestCluster;
import dev.sluice.kafka.it.TestKafka;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sluice run} configurations of the Kafka resilience ITs: json700 events from a topic
 * into a {@link Json700#COLUMNS} table of the test cluster, with small batches (so that kills and
 * rebalances find many in flight), a budget above what open batches can hold (a budget-sealed
 * replay would get tokens of its own, legitimately writing again), short commit intervals and
 * endless retries.
 */
final class StreamPipelines {
    /** {@code batch.max_rows}. */
    static final int MAX_ROWS = 4_000;

    private final Path dir;
    private final String topic;

    StreamPipelines(Path dir, String topic) {
        this.dir = dir;
        this.topic = topic;
    }

    /** One run's configuration; the setters return this. */
    final class Config {
        private final String name;
        private final String group;
        private final String table;
        private final int slot;
        private final int adminPort;
        private final List<String> replicas = new ArrayList<>();
        private int threads = 2;
        private int inflightPerShard = 2;
        private boolean runColumn;
        private String properties = "";
        private String urlOptions = "";
        private String budget = "256MiB";
        private String maxBytes = "4MiB";

        Config(String name, String group, String table, int slot, int adminPort) {
            this.name = name;
            this.group = group;
            this.table = table;
            this.slot = slot;
            this.adminPort = adminPort;
        }

        /** The replicas of the one shard, by cluster server number, in order. */
        Config replicas(int... servers) {
            replicas.clear();
            for (int s : servers) {
                replicas.add(TestCluster.url(s));
            }
            return this;
        }

        Config threads(int n) {
            threads = n;
            return this;
        }

        Config inflightPerShard(int n) {
            inflightPerShard = n;
            return this;
        }

        /** A {@code run} column from {@code SLUICE_RUN}. */
        Config runColumn() {
            runColumn = true;
            return this;
        }

        /**
         * Consumer properties besides {@code client.rack} (which names the run, so that the group's
         * description tells whose members are whose), as YAML flow-map entries ({@code "a": "1",
         * "b": "2"}).
         */
        Config properties(String entries) {
            properties = entries;
            return this;
        }

        /** Query options of every replica's URL ({@code read_timeout=90s}). */
        Config urlOptions(String options) {
            urlOptions = options;
            return this;
        }

        Config budget(String size) {
            budget = size;
            return this;
        }

        Config maxBytes(String size) {
            maxBytes = size;
            return this;
        }

        String yaml() {
            StringBuilder urls = new StringBuilder();
            for (String r : replicas) {
                urls.append(urls.isEmpty() ? "" : ", ")
                        .append('"')
                        .append(urlOptions.isEmpty() ? r : r + "?" + urlOptions)
                        .append('"');
            }
            return """
                    pipeline: {name: %s, threads: %d}
                    source:
                      kafka:
                        bootstrap_servers: %s
                        topics: [%s]
                        group_id: %s
                        start: earliest
                        properties: {client.rack: "run-${SLUICE_RUN}"%s}
                    %s%s
                    sink:
                      clickhouse:
                        shards:
                          - replicas: [%s]
                        table: %s
                        batch: {max_rows: %d, max_bytes: %s, linger: 300ms}
                        inflight_per_shard: %d
                        retry: {initial: 100ms, max: 1s, max_attempts: 0}
                    errors: {policy: fail}
                    backpressure: {max_inflight_bytes: %s}
                    checkpoint: {interval: 250ms, revoke_timeout: 20s, dir: "%s"}
                    admin: {listen: "127.0.0.1:%d"}
                    """
                    .formatted(
                            name,
                            threads,
                            TestKafka.bootstrapServers(),
                            topic,
                            group,
                            properties.isEmpty() ? "" : ", " + properties,
                            Json700.DECODE,
                            runColumn
                                    ? "transforms:\n  - constant:\n      column: run\n      value: ${SLUICE_RUN}\n"
                                    : "",
                            urls,
                            table,
                            MAX_ROWS,
                            maxBytes,
                            inflightPerShard,
                            budget,
                            dir.resolve(name + "-slot" + slot + "-state"),
                            adminPort);
        }
    }

    Config config(String name, String group, String table, int slot, int adminPort) {
        return new Config(name, group, table, slot, adminPort);
    }

    /**
     * Into a ReplicatedMergeTree table on both servers: slot 0 lists server 1 first, slot 1 server
     * 2.
     */
    String replicated(String name, String group, String table, int slot, int adminPort) {
        return config(name, group, table, slot, adminPort)
                .replicas(slot % 2 == 0 ? new int[] {1, 2} : new int[] {2, 1})
                .yaml();
    }

    /** Into a MergeTree table on server 1, with the run in a column. */
    String mergeTree(String name, String group, String table, int slot, int adminPort) {
        return config(name, group, table, slot, adminPort).replicas(1).runColumn().yaml();
    }
}
