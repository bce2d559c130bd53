package dev.sluice.pipeline.config;

import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.TableRoute;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code sink} section: the ClickHouse table, its shards and replicas, batching, retries. */
final class SinkSection {
    private static final Set<String> SCHEMES =
            Set.of("clickhouse", "clickhouses", "tcp", "http", "https");
    private static final Pattern ZSTD_LEVEL = Pattern.compile("zstd:([0-9]+)");
    private static final Pattern USER_PASSWORD = Pattern.compile("([^:/@]+):[^@/]*@");
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(password=)[^&]*");

    private SinkSection() {}

    /**
     * @param topics true when the source's records have topics (Kafka): only then may the table
     *     depend on them
     */
    static SinkSpec sink(ConfigNode node, boolean topics) {
        ConfigMap section = node.map();
        String kind = section.oneOf("clickhouse");
        ConfigMap m = section.map(kind);
        m.allow(
                "url",
                "shards",
                "table",
                "batch",
                "inflight_per_shard",
                "compression",
                "presort",
                "partition_split",
                "settings",
                "retry",
                "on_unknown_outcome",
                "outcome_timeout",
                "shard_by",
                "cluster",
                "schema_check_interval",
                "tables");
        String cluster = m.string("cluster", null);
        if (cluster != null && m.get("url") == null) {
            throw m.required("cluster")
                    .error("needs url (a server of the cluster, to read its system.clusters)");
        }
        ConfigNode tableNode = m.get("table");
        Map<String, String> tables = tables(m.map("tables"));
        String table;
        if (tableNode == null && !tables.isEmpty()) {
            table = null; // every topic is mapped; a record of another topic stops the pipeline
        } else {
            table = m.required("table").nonBlank().trim();
        }
        ConfigNode routeNode = tableNode != null ? tableNode : m.required("tables");
        TableRoute route;
        try {
            route = TableRoute.of(table, tables);
        } catch (IllegalArgumentException e) {
            throw routeNode.error(e.getMessage());
        }
        if (route.byTopic() && !topics) {
            throw (route.template() ? routeNode : m.required("tables"))
                    .error(
                            "tables chosen by topic need a source whose records have topics"
                                    + " (kafka)");
        }
        return SinkSpec.builder(shards(m), table)
                .batch(batch(m.map("batch")))
                .inflightPerShard(
                        (int)
                                m.integer(
                                        "inflight_per_shard",
                                        ConfigDefaults.INFLIGHT_PER_SHARD,
                                        1,
                                        1024))
                .compression(compression(m.get("compression")))
                .presort(presort(m.get("presort")))
                .partitionSplit(m.bool("partition_split", false))
                .settings(settings(m.map("settings")))
                .retry(retry(m.map("retry")))
                .onUnknownOutcome(onUnknownOutcome(m.get("on_unknown_outcome")))
                .outcomeTimeout(
                        m.duration(
                                "outcome_timeout", ConfigDefaults.OUTCOME_TIMEOUT, Duration.ZERO))
                .shardBy(m.string("shard_by", null))
                .cluster(cluster)
                .schemaCheckInterval(
                        m.duration(
                                "schema_check_interval",
                                ConfigDefaults.SCHEMA_CHECK_INTERVAL,
                                Duration.ZERO))
                .tables(tables)
                .build();
    }

    /** {@code tables}: topic → table, as written. */
    private static Map<String, String> tables(ConfigMap m) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String topic : m.keys()) {
            out.put(topic, m.required(topic).nonBlank().trim());
        }
        return out;
    }

    /** Off when absent; true and false still mean on and off. */
    private static PresortMode presort(ConfigNode node) {
        if (node == null) {
            return PresortMode.OFF;
        }
        try {
            return PresortMode.parse(node.text());
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    /** Null when absent: the default follows the table (resend where it deduplicates). */
    private static OnUnknownOutcome onUnknownOutcome(ConfigNode node) {
        if (node == null) {
            return null;
        }
        try {
            return OnUnknownOutcome.parse(node.text());
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    private static List<ShardSpec> shards(ConfigMap m) {
        ConfigNode url = m.get("url");
        ConfigNode shards = m.get("shards");
        if ((url == null) == (shards == null)) {
            throw m.error(
                    url == null
                            ? "needs url (one server) or shards (a list of {replicas, weight})"
                            : "has both url and shards: give one");
        }
        if (url != null) {
            return List.of(new ShardSpec(List.of(url(url)), ConfigDefaults.SHARD_WEIGHT));
        }
        List<ShardSpec> out = new ArrayList<>();
        for (ConfigNode shard : shards.list()) {
            ConfigMap s = shard.map();
            s.allow("replicas", "weight");
            List<String> replicas = new ArrayList<>();
            for (ConfigNode r : s.required("replicas").listOrOne()) {
                replicas.add(url(r));
            }
            if (replicas.isEmpty()) {
                throw s.required("replicas").error("needs at least one URL");
            }
            out.add(
                    new ShardSpec(
                            replicas,
                            (int) s.integer("weight", ConfigDefaults.SHARD_WEIGHT, 1, 1_000_000)));
        }
        if (out.isEmpty()) {
            throw shards.error("needs at least one shard");
        }
        return out;
    }

    /**
     * Checks the URL's shape only; the password and parameters are the client's business. Messages
     * show the URL without its password.
     */
    private static String url(ConfigNode node) {
        String url = node.nonBlank().trim();
        String shown =
                PASSWORD_PARAMETER
                        .matcher(USER_PASSWORD.matcher(url).replaceFirst("$1:***@"))
                        .replaceAll("$1***");
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!SCHEMES.contains(scheme)) {
                throw node.error(
                        "expected a clickhouse://host:9000/db or http(s)://host:8123/db URL, got '"
                                + shown
                                + "'");
            }
            if (uri.getHost() == null) {
                throw node.error("the URL has no host: '" + shown + "'");
            }
        } catch (URISyntaxException e) {
            throw node.error("not a URL (" + e.getReason() + "): '" + shown + "'");
        }
        return url;
    }

    private static BatchSpec batch(ConfigMap m) {
        m.allow("max_rows", "max_bytes", "linger");
        return new BatchSpec(
                (int) m.integer("max_rows", ConfigDefaults.BATCH_MAX_ROWS, 1, Integer.MAX_VALUE),
                m.size("max_bytes", ConfigDefaults.BATCH_MAX_BYTES, 1, Long.MAX_VALUE),
                m.duration("linger", ConfigDefaults.BATCH_LINGER, Duration.ZERO));
    }

    private static String compression(ConfigNode node) {
        if (node == null) {
            return ConfigDefaults.COMPRESSION;
        }
        String c = node.text().trim().toLowerCase(Locale.ROOT);
        Matcher zstd = ZSTD_LEVEL.matcher(c);
        if (zstd.matches()) {
            int level = Integer.parseInt(zstd.group(1));
            if (level < 1 || level > 22) {
                throw node.error("the zstd level must be between 1 and 22, got " + level);
            }
            return c;
        }
        return switch (c) {
            case "lz4", "zstd", "none" -> c;
            case "off" -> "none";
            default ->
                    throw node.error(
                            "expected lz4, zstd, zstd:LEVEL (1-22) or none, got '" + c + "'");
        };
    }

    private static Map<String, String> settings(ConfigMap m) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : m.keys()) {
            out.put(key, m.required(key).text());
        }
        return out;
    }

    private static RetrySpec retry(ConfigMap m) {
        m.allow("initial", "max", "multiplier", "jitter", "max_attempts", "give_up_after");
        RetrySpec d = ConfigDefaults.RETRY;
        Duration initial = m.duration("initial", d.initial(), Duration.ofMillis(1));
        Duration max = m.duration("max", d.max(), Duration.ofMillis(1));
        if (max.compareTo(initial) < 0) {
            ConfigNode at = m.get("max") != null ? m.get("max") : m.required("initial");
            throw at.error("retry.max (" + max.toMillis() + "ms) is less than retry.initial");
        }
        return new RetrySpec(
                initial,
                max,
                m.decimal("multiplier", d.multiplier(), 1.0, 1000.0),
                m.decimal("jitter", d.jitter(), 0.0, 1.0),
                (int) m.integer("max_attempts", d.maxAttempts(), 0, Integer.MAX_VALUE),
                m.duration("give_up_after", d.giveUpAfter(), Duration.ZERO));
    }
}
