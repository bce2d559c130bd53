package dev.sluice.pipeline.writer;

import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shards of {@code sink.clickhouse.cluster}: the server's {@code system.clusters} rows of the
 * cluster, in shard order, each shard with its weight and its replicas — reached with the
 * configured URL's scheme, credentials, database and settings, at the replica's address and native
 * port. Only a native ({@code clickhouse://}) URL works: {@code system.clusters} lists native
 * ports.
 */
public final class ClusterShards {
    /** The query; its rows are what {@link #from} reads. */
    public static String query(String cluster) {
        return "SELECT shard_num, shard_weight, replica_num, host_address, port"
                + " FROM system.clusters WHERE cluster = '"
                + cluster.replace("\\", "\\\\").replace("'", "\\'")
                + "' ORDER BY shard_num, replica_num";
    }

    private ClusterShards() {}

    /**
     * @param url the sink's URL (a server of the cluster)
     * @param rows the rows of {@link #query}: shard_num, shard_weight, replica_num, host_address,
     *     port
     * @throws IllegalArgumentException when the cluster is unknown or the URL is not native
     */
    public static List<ShardSpec> from(String url, String cluster, List<List<Object>> rows) {
        URI base;
        try {
            base = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("sink.clickhouse.url: " + e.getMessage(), e);
        }
        String scheme = base.getScheme();
        if (scheme == null
                || !(scheme.equals("clickhouse")
                        || scheme.equals("clickhouses")
                        || scheme.equals("tcp"))) {
            throw new IllegalArgumentException(
                    "sink.clickhouse.cluster needs a clickhouse:// url: system.clusters lists the"
                            + " servers' native ports");
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "cluster "
                            + cluster
                            + " is not in system.clusters of "
                            + base.getHost()
                            + ":"
                            + base.getPort());
        }
        Map<Long, List<String>> replicas = new LinkedHashMap<>();
        Map<Long, Integer> weights = new LinkedHashMap<>();
        for (List<Object> r : rows) {
            long shard = ((Number) r.get(0)).longValue();
            weights.put(shard, ((Number) r.get(1)).intValue());
            String host = (String) r.get(3);
            int port = ((Number) r.get(4)).intValue();
            try {
                replicas.computeIfAbsent(shard, k -> new ArrayList<>())
                        .add(
                                new URI(
                                                scheme,
                                                base.getRawUserInfo() == null
                                                        ? null
                                                        : base.getUserInfo(),
                                                host.contains(":") ? "[" + host + "]" : host,
                                                port,
                                                base.getPath(),
                                                base.getQuery(),
                                                null)
                                        .toString());
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(
                        "cluster " + cluster + ": replica " + host + ":" + port + ": " + e, e);
            }
        }
        List<ShardSpec> shards = new ArrayList<>();
        replicas.forEach((shard, urls) -> shards.add(new ShardSpec(urls, weights.get(shard))));
        return shards;
    }
}
