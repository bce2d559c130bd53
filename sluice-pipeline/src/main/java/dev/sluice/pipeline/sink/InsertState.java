package dev.sluice.pipeline.sink;

import java.util.ArrayList;
import java.util.List;

/**
 * One INSERT of a batch across its attempts: its query ids, how many attempts are known written,
 * and those whose outcome is not known (doubts). Used by one writer thread.
 *
 * <p>Every attempt's query id is {@code <token>#<run nonce>.<n>}: the INSERT's deduplication token
 * (batch token plus sub-token), then the sending pipeline's nonce (different on every start, so
 * attempts of earlier runs can be told from this one's), then the attempt number — and, when the
 * batch is sent as several INSERTs, {@code /<of>}, how many: a look-up by the batch's token alone
 * (a member of a batch of several partitions replayed alone, {@link GroupLookup}) can then tell
 * whether it found them all. The server logs it, so {@code startsWith(query_id, '<token>#')} finds
 * every attempt ever made of this INSERT.
 */
final class InsertState {

    /**
     * An attempt whose outcome is not known.
     *
     * @param queryId the attempt's query id; null for the attempts of earlier runs (a replay)
     * @param url the replica it went to
     */
    record Doubt(String queryId, String url) {}

    final String token;
    final int rows;
    final int index;
    final int of;

    /** Uncompressed bytes of its block (known once a part's block is made). */
    long bytes;

    /** For a part of an INSERT sent in halves: which rows of it, for messages; else null. */
    String part;

    final List<Doubt> doubts = new ArrayList<>();

    /** Attempts known written: acknowledged, or found written in the server's log. */
    int copies;

    /** Attempts sent by this run. */
    int attempts;

    /** A replayed INSERT was looked up on its server before its first attempt. */
    boolean replayChecked;

    /** The query id of the last attempt sent. */
    String lastQueryId;

    /** Why the doubts are doubts, in words (for the notes). */
    String doubtReason;

    /**
     * An attempt interrupted after its data was sent and sent again without a look-up, because the
     * table drops a repeated block; null when none was. Should the block change before it is
     * acknowledged (the table was altered), that attempt becomes a doubt.
     */
    Doubt interrupted;

    /**
     * @param index this INSERT's number in its batch (0-based), of {@code of}
     */
    InsertState(String token, int rows, long bytes, int index, int of) {
        this.token = token;
        this.rows = rows;
        this.bytes = bytes;
        this.index = index;
        this.of = of;
    }

    /**
     * This INSERT with its rows re-encoded for an altered table ({@code rows} of them now): the
     * same token, and its progress so far — attempts (query ids go on counting), doubts about
     * earlier attempts, the replay look-up.
     */
    InsertState reencoded(int rows, long bytes) {
        InsertState s = new InsertState(token, rows, bytes, index, of);
        s.part = part;
        s.doubts.addAll(doubts);
        s.copies = copies;
        s.attempts = attempts;
        s.replayChecked = replayChecked;
        s.lastQueryId = lastQueryId;
        s.doubtReason = doubtReason;
        s.interrupted = interrupted;
        return s;
    }

    /** The prefix of every attempt's query id. */
    String prefix() {
        return token + "#";
    }

    /** The query id of the next attempt, counted as sent. */
    String nextQueryId(String nonce) {
        lastQueryId = prefix() + nonce + "." + (++attempts) + (of > 1 ? "/" + of : "");
        return lastQueryId;
    }

    /** The doubts about attempts sent to {@code url}. */
    List<Doubt> doubtsAt(String url) {
        List<Doubt> out = new ArrayList<>();
        for (Doubt d : doubts) {
            if (d.url().equals(url)) {
                out.add(d);
            }
        }
        return out;
    }

    /** The query ids of the doubts, for messages ("an earlier run's" for a replay's). */
    List<String> doubtIds() {
        List<String> out = new ArrayList<>();
        for (Doubt d : doubts) {
            out.add(d.queryId() != null ? "'" + d.queryId() + "'" : "an earlier run's");
        }
        return out;
    }
}
