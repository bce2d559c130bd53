package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.status.Fate;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.clickhouse.status.QueryTrace;
import dev.sluice.pipeline.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Asks a replica what became of an INSERT's attempts whose acknowledgement was lost ({@link
 * QueryTrace}): polled while an attempt still runs there or the server does not answer, until a
 * deadline. Every wait is on the injected clock and interruptible (the drain deadline interrupts
 * writers), and every lookup opens a connection of its own with timeouts within the deadline, so a
 * stalled or dead server makes the outcome unknown, never a hung writer.
 */
final class OutcomeResolver {

    /** What the look-up found. */
    enum Verdict {
        WRITTEN,
        NOT_WRITTEN,
        /** Nothing on the server of that INSERT (a replay's earlier attempts only). */
        NOT_FOUND,
        UNKNOWN,
        /** Not running and no end in the log yet: unknown if it stays so (internal). */
        UNSETTLED,
        /** The writer was interrupted while waiting: it is being stopped. */
        INTERRUPTED
    }

    /**
     * @param copies attempts found written
     * @param reason why the outcome is unknown, in words; null otherwise
     */
    record Result(Verdict verdict, int copies, String reason) {}

    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /**
     * How long an attempt that is neither running nor ended in the log is looked for before it
     * counts as lost: 18.16 may show a query's end only at the log's next flush (7.5 s apart by
     * default), even after {@code SYSTEM FLUSH LOGS} ({@link QueryTrace}).
     */
    static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long a replayed INSERT of which the server shows nothing is looked for again: an INSERT
     * the dead run sent last may have ended a moment ago, its end still in the log's queue.
     */
    static final long REPLAY_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(2);

    private static final Duration MIN_LOOKUP = Duration.ofSeconds(1);

    /** A look's connect and read timeout at most: within the writers' grace after a drain. */
    private static final Duration MAX_LOOKUP = Duration.ofSeconds(10);

    /** A replay looks this far back in the query log for the attempts of earlier runs. */
    static final int REPLAY_DAYS = 8;

    private final TraceLookup lookup;
    private final Clock clock;
    private final QueryLogging logging;
    private final String nonce;

    OutcomeResolver(TraceLookup lookup, Clock clock, QueryLogging logging, String nonce) {
        this.lookup = lookup;
        this.clock = clock;
        this.logging = logging;
        this.nonce = nonce;
    }

    /**
     * Looks up the doubts of {@code insert} about attempts sent to {@code url} until one is found
     * written, all are found not written, or {@code deadlineNanos}. Found doubts leave {@code
     * insert.doubts}; those still unknown stay.
     *
     * @param waitForServer keep asking while the server does not answer; false: its failure is
     *     thrown
     * @throws ClickHouseException when the server does not answer and {@code !waitForServer}
     */
    Result resolve(InsertState insert, String url, long deadlineNanos, boolean waitForServer) {
        List<InsertState.Doubt> doubts = insert.doubtsAt(url);
        if (doubts.isEmpty()) {
            return new Result(Verdict.NOT_WRITTEN, 0, null);
        }
        if (!logging.usable()) {
            return unknownNow(insert, doubts, logging.detail());
        }
        long began = clock.nanoTime();
        long settleBy = Long.MAX_VALUE;
        Result notFound = null;
        String problem = null;
        while (true) {
            long left = deadlineNanos - clock.nanoTime();
            try {
                QueryTrace trace =
                        lookup.trace(
                                url, insert.prefix(), since(doubts), lookupTimeout(left), logging);
                Result r = judge(insert, doubts, trace);
                boolean unsettled =
                        r != null
                                && (r.verdict() == Verdict.UNSETTLED
                                        || (r.verdict() == Verdict.NOT_FOUND && trace.logRead()));
                if (r != null && !unsettled) {
                    return r;
                }
                notFound = r != null && r.verdict() == Verdict.NOT_FOUND ? r : null;
                if (r == null) {
                    problem = "it was still running on the server";
                    settleBy = Long.MAX_VALUE;
                } else {
                    long now = clock.nanoTime();
                    if (settleBy == Long.MAX_VALUE) {
                        // An earlier run's INSERT that finished just before it died may still be on
                        // its way into the log; that is a short wait, not the whole flush interval.
                        settleBy =
                                now
                                        + (r.verdict() == Verdict.NOT_FOUND
                                                ? REPLAY_SETTLE_NANOS
                                                : SETTLE_NANOS);
                    }
                    if (now - settleBy >= 0) {
                        return r.verdict() == Verdict.NOT_FOUND
                                ? r
                                : new Result(Verdict.UNKNOWN, 0, r.reason());
                    }
                    problem = r.reason();
                }
            } catch (ConnectionException e) {
                if (!waitForServer) {
                    throw e;
                }
                problem = "the server did not answer (" + e.getMessage() + ")";
                notFound = null;
            } catch (ClickHouseException e) {
                return unknownNow(
                        insert, doubts, "the server could not be asked: " + e.getMessage());
            }
            long now = clock.nanoTime();
            if (now - deadlineNanos >= 0) {
                if (notFound != null) {
                    return notFound; // nothing of an earlier run: the caller decides
                }
                return new Result(
                        Verdict.UNKNOWN,
                        0,
                        problem + " for " + human(Duration.ofNanos(now - began)));
            }
            try {
                clock.sleep(Math.min(POLL_NANOS, deadlineNanos - now));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(Verdict.INTERRUPTED, 0, "the writer was stopped while asking");
            }
        }
    }

    /** One look at the trace: a result, or null while an attempt still runs. */
    private Result judge(InsertState insert, List<InsertState.Doubt> doubts, QueryTrace trace) {
        int written = 0;
        boolean running = false;
        String unknown = null;
        boolean settledUnknown = false;
        List<InsertState.Doubt> settled = new ArrayList<>();
        for (InsertState.Doubt d : doubts) {
            Fate f =
                    d.queryId() != null
                            ? trace.fate(d.queryId(), insert.rows)
                            : earlier(trace, insert);
            switch (f) {
                case WRITTEN -> {
                    written++;
                    settled.add(d);
                }
                case NOT_WRITTEN -> settled.add(d);
                case RUNNING -> running = true;
                case NOT_FOUND -> {
                    if (d.queryId() != null) {
                        unknown = notFound(trace);
                    } // nothing of an earlier run: the caller decides (the doubt stays)
                }
                case STARTED ->
                        unknown =
                                "the server logged its start but no end, and it is not running (the"
                                        + " server stopped during it)";
                case PARTIAL -> {
                    settledUnknown = true;
                    unknown =
                            "part of its rows may have been written (" + exception(trace, d) + ")";
                }
            }
        }
        if (written == 0 && running) {
            return null;
        }
        insert.doubts.removeAll(settled);
        if (written > 0) {
            return new Result(Verdict.WRITTEN, written, null);
        }
        if (unknown != null) {
            // A missing end may still be on its way into the log; a partial write is final.
            return new Result(
                    settledUnknown || !trace.logRead() ? Verdict.UNKNOWN : Verdict.UNSETTLED,
                    0,
                    unknown);
        }
        boolean earlierOnly = doubts.size() == 1 && doubts.get(0).queryId() == null;
        if (earlierOnly && earlier(trace, insert) == Fate.NOT_FOUND) {
            return new Result(Verdict.NOT_FOUND, 0, notFound(trace));
        }
        return new Result(Verdict.NOT_WRITTEN, 0, null);
    }

    /**
     * The attempts of earlier runs taken together: written if any was; running if any runs; unknown
     * (STARTED) if any may have written part or all; not written if all failed; NOT_FOUND when
     * there are none.
     */
    private Fate earlier(QueryTrace trace, InsertState insert) {
        String own = insert.prefix() + nonce + ".";
        boolean any = false;
        boolean running = false;
        boolean unsure = false;
        for (Map.Entry<String, Fate> e : trace.fates(insert.rows).entrySet()) {
            if (e.getKey().startsWith(own)) {
                continue;
            }
            any = true;
            switch (e.getValue()) {
                case WRITTEN -> {
                    return Fate.WRITTEN;
                }
                case RUNNING -> running = true;
                case STARTED, PARTIAL, NOT_FOUND -> unsure = true;
                case NOT_WRITTEN -> {}
            }
        }
        if (running) {
            return Fate.RUNNING;
        }
        if (unsure) {
            return Fate.STARTED;
        }
        return any ? Fate.NOT_WRITTEN : Fate.NOT_FOUND;
    }

    private Result unknownNow(InsertState insert, List<InsertState.Doubt> doubts, String why) {
        boolean earlierOnly =
                !doubts.isEmpty() && doubts.size() == 1 && doubts.get(0).queryId() == null;
        if (earlierOnly) {
            return new Result(Verdict.NOT_FOUND, 0, why); // the caller decides
        }
        return new Result(Verdict.UNKNOWN, 0, why);
    }

    private static String notFound(QueryTrace trace) {
        return trace.logRead()
                ? "the server's query log has no entry for it (lost when the server stopped?)"
                : "the server keeps no query log";
    }

    private static String exception(QueryTrace trace, InsertState.Doubt d) {
        String e = d.queryId() == null ? null : trace.exception(d.queryId());
        return e == null ? "an error" : e;
    }

    /** Far enough back for the attempts asked about: this run's, or (a replay) a week's. */
    private LocalDate since(List<InsertState.Doubt> doubts) {
        boolean earlier = doubts.stream().anyMatch(d -> d.queryId() == null);
        // Two days back covers any server time zone; the log is partitioned by its local date.
        int days = earlier ? REPLAY_DAYS : 2;
        return LocalDate.ofInstant(Instant.ofEpochMilli(clock.currentTimeMillis()), ZoneOffset.UTC)
                .minusDays(days);
    }

    /** A look's connect and read timeout with {@code leftNanos} to the deadline. */
    static Duration lookupTimeout(long leftNanos) {
        Duration left = Duration.ofNanos(Math.max(0, leftNanos));
        if (left.compareTo(MIN_LOOKUP) < 0) {
            return MIN_LOOKUP;
        }
        return left.compareTo(MAX_LOOKUP) > 0 ? MAX_LOOKUP : left;
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 120_000) {
            return (ms / 100) / 10.0 + " s";
        }
        return (ms / 60_000) + " min";
    }
}
