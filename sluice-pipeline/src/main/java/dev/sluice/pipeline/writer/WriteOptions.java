package dev.sluice.pipeline.writer;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How one submission is written: {@link ClickHouseWriter#submit(Rows, WriteOptions)}.
 *
 * <ul>
 *   <li>{@link #token}: the submission is one batch of its own (never merged with others) and this
 *       is its deduplication token: sent as {@code insert_deduplication_token} to servers that take
 *       it, and the prefix of its INSERTs' query ids, so that an INSERT whose acknowledgement was
 *       lost can be looked up on its server (docs/pipeline.md, "Interrupted INSERTs"). The same
 *       rows must always carry the same token, and different rows different tokens. Without one,
 *       the writer gathers the rows with other submissions' into batches of its own.
 *   <li>{@link #shardKey}: which shard takes the submission (hashed over the shards' weights); by
 *       default the token. A writer with {@code shardBy} routes each row by that expression
 *       instead.
 *   <li>{@link #describedAs}: where the rows come from, for messages ("events-3 offsets 10..99").
 *   <li>{@link #replayed}: the rows may have been sent under this token before, by an earlier
 *       process: where the table cannot drop a repeated INSERT, the writer looks the token up on
 *       the server first and does not send what is already written.
 *   <li>{@link #nowSeconds}: the {@code now()} of DEFAULT expressions (epoch seconds); by default
 *       the time of submission. Give a fixed one (e.g. the first record's timestamp) where a replay
 *       must produce the very same block.
 * </ul>
 *
 * Immutable; each method returns a copy.
 */
public final class WriteOptions {
    /** Token characters: they go into query ids and SQL look-ups unquoted-safe. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._:/@~+=-]{1,256}");

    private static final WriteOptions DEFAULTS = new WriteOptions(null, null, null, false, -1);

    private final String token;
    private final String shardKey;
    private final String description;
    private final boolean replayed;
    private final long nowSeconds;

    private WriteOptions(
            String token, String shardKey, String description, boolean replayed, long nowSeconds) {
        this.token = token;
        this.shardKey = shardKey;
        this.description = description;
        this.replayed = replayed;
        this.nowSeconds = nowSeconds;
    }

    /** No token: the rows are gathered with others. */
    public static WriteOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A batch of its own with deduplication token {@code token}.
     *
     * @throws IllegalArgumentException when the token is empty, longer than 256 characters or has a
     *     character outside {@code [A-Za-z0-9._:/@~+=-]}
     */
    public static WriteOptions token(String token) {
        return DEFAULTS.withToken(token);
    }

    /** The same options with deduplication token {@code token} (see {@link #token(String)}). */
    public WriteOptions withToken(String token) {
        Objects.requireNonNull(token, "token");
        if (!TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException(
                    "a deduplication token needs 1 to 256 characters of [A-Za-z0-9._:/@~+=-]: '"
                            + token
                            + "'");
        }
        return new WriteOptions(token, shardKey, description, replayed, nowSeconds);
    }

    public WriteOptions shardKey(String key) {
        return new WriteOptions(token, key, description, replayed, nowSeconds);
    }

    public WriteOptions describedAs(String what) {
        return new WriteOptions(token, shardKey, what, replayed, nowSeconds);
    }

    public WriteOptions replayed(boolean maybeSentBefore) {
        return new WriteOptions(token, shardKey, description, maybeSentBefore, nowSeconds);
    }

    public WriteOptions nowSeconds(long epochSeconds) {
        return new WriteOptions(token, shardKey, description, replayed, epochSeconds);
    }

    public String token() {
        return token;
    }

    public String shardKey() {
        return shardKey;
    }

    public String description() {
        return description;
    }

    public boolean replayed() {
        return replayed;
    }

    /** The batch's {@code now()}, or -1 for the time of submission. */
    public long nowSeconds() {
        return nowSeconds;
    }
}
