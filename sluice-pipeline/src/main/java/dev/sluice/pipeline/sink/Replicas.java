package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ConnectionConfig;
import java.util.List;
import java.util.function.Function;

/**
 * One writer's connections to the replicas of its shard: opened when first needed, dropped after a
 * connection failure and reopened on next use. A retry moves to the next replica. Used by one
 * thread.
 */
final class Replicas implements AutoCloseable {
    private final List<String> urls;
    private final Function<String, BlockInserter> open;
    private final BlockInserter[] connections;
    private int current;

    /**
     * @param start the replica to begin with, so that the writers of a shard spread over its
     *     replicas
     */
    Replicas(List<String> urls, Function<String, BlockInserter> open, int start) {
        this.urls = List.copyOf(urls);
        this.open = open;
        this.connections = new BlockInserter[urls.size()];
        this.current = Math.floorMod(start, urls.size());
    }

    int size() {
        return urls.size();
    }

    /** The current replica's connection, (re)opened if needed; may throw a connection error. */
    BlockInserter connection() {
        BlockInserter c = connections[current];
        if (c == null || !c.isOpen()) {
            discard();
            c = open.apply(urls.get(current));
            connections[current] = c;
        }
        return c;
    }

    /** Closes the current replica's connection (after it failed). */
    void discard() {
        BlockInserter c = connections[current];
        connections[current] = null;
        if (c != null) {
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // it is broken already; closing is only to free the socket
            }
        }
    }

    /** Moves to the next replica. */
    void next() {
        current = (current + 1) % urls.size();
    }

    /** The current replica's URL, as configured (password included: never print it). */
    String url() {
        return urls.get(current);
    }

    /** Every replica's URL, as configured (passwords included: never print them). */
    List<String> urls() {
        return urls;
    }

    /** The current replica's URL without its password, for messages. */
    String describe() {
        return ConnectionConfig.redact(urls.get(current));
    }

    @Override
    public void close() {
        for (int i = 0; i < connections.length; i++) {
            current = i;
            discard();
        }
    }
}
