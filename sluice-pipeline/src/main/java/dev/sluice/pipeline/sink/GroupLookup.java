package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionConfig;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds out whether the batch of several partitions (a group) that a replayed member belonged to
 * was written, before the member is sent alone (docs/adr/0011). The group's INSERTs carry query ids
 * that start with the group's token, and may have gone to any replica of the shard, so every
 * replica is asked ({@link QueryTrace}, over a connection of its own): the group counts as written
 * only when every one of its INSERTs was — a group sent as several INSERTs says how many in each
 * query id ({@link InsertState#nextQueryId}) — and as not written only when none wrote anything.
 *
 * <p>Polled like {@link OutcomeResolver}: while an INSERT of the group still runs, or a replica
 * does not answer, until a deadline; nothing found is looked for {@link
 * OutcomeResolver#REPLAY_SETTLE_NANOS} more (the dead run's last INSERT may still be on its way
 * into the log), a doubtful trace (a start without an end, part of the INSERTs written) {@link
 * OutcomeResolver#SETTLE_NANOS} more (18.16's log flush lags). Every wait is on the injected clock
 * and interruptible.
 */
final class GroupLookup {

    /** What the look-up found. */
    enum Verdict {
        /** Every INSERT of the group was written: the member's rows are in the table. */
        WRITTEN,
        /** The group's INSERTs failed without writing anything. */
        NOT_WRITTEN,
        /** Nothing of the group on any replica. */
        NOT_FOUND,
        /** The replicas cannot tell. */
        UNKNOWN,
        /** The writer was interrupted while waiting: it is being stopped. */
        INTERRUPTED
    }

    /**
     * @param reason why the outcome is unknown, in words; null otherwise
     */
    record Result(Verdict verdict, String reason) {}

    private final TraceLookup lookup;
    private final Clock clock;
    private final QueryLogging logging;

    GroupLookup(TraceLookup lookup, Clock clock, QueryLogging logging) {
        this.lookup = lookup;
        this.clock = clock;
        this.logging = logging;
    }

    /**
     * Looks up the INSERTs of the group {@code groupToken} on the replicas {@code urls} until the
     * answer is known or {@code deadlineNanos}.
     */
    Result look(String groupToken, List<String> urls, long deadlineNanos) {
        if (!logging.usable()) {
            return new Result(Verdict.UNKNOWN, logging.detail());
        }
        long began = clock.nanoTime();
        long settleBy = Long.MAX_VALUE;
        Verdict settling = null;
        String problem;
        while (true) {
            Map<String, Fate> fates = new LinkedHashMap<>();
            String silent = null;
            boolean logRead = true;
            long left = deadlineNanos - clock.nanoTime();
            for (String url : urls) {
                try {
                    QueryTrace trace =
                            lookup.trace(
                                    url,
                                    groupToken,
                                    since(),
                                    OutcomeResolver.lookupTimeout(left),
                                    logging);
                    logRead &= trace.logRead();
                    for (Map.Entry<String, Fate> e : trace.fates(1).entrySet()) {
                        if (ofGroup(groupToken, e.getKey())) {
                            fates.put(e.getKey(), e.getValue());
                        }
                    }
                } catch (ConnectionException e) {
                    silent =
                            ConnectionConfig.redact(url)
                                    + " did not answer ("
                                    + e.getMessage()
                                    + ")";
                } catch (ClickHouseException e) {
                    return new Result(
                            Verdict.UNKNOWN,
                            ConnectionConfig.redact(url)
                                    + " could not be asked: "
                                    + e.getMessage());
                }
            }
            Judgement j = judge(fates);
            if (j.verdict == Verdict.WRITTEN) {
                return new Result(Verdict.WRITTEN, null); // whatever a silent replica holds
            }
            Verdict now = null;
            if (silent != null) {
                problem = silent;
                settleBy = Long.MAX_VALUE;
                settling = null;
            } else if (!logRead) {
                return new Result(Verdict.UNKNOWN, "a replica keeps no query log");
            } else if (j.verdict == Verdict.NOT_WRITTEN) {
                return new Result(Verdict.NOT_WRITTEN, null);
            } else if (j.verdict == null) {
                problem = "an INSERT of it was still running";
                settleBy = Long.MAX_VALUE;
                settling = null;
            } else {
                now = j.verdict; // NOT_FOUND or UNKNOWN: both may be a log not flushed yet
                problem = j.reason;
            }
            long t = clock.nanoTime();
            if (now != null) {
                if (settling != now) {
                    settling = now;
                    settleBy =
                            t
                                    + (now == Verdict.NOT_FOUND
                                            ? OutcomeResolver.REPLAY_SETTLE_NANOS
                                            : OutcomeResolver.SETTLE_NANOS);
                }
                if (t - settleBy >= 0) {
                    return new Result(now, j.reason);
                }
            }
            if (t - deadlineNanos >= 0) {
                return new Result(
                        Verdict.UNKNOWN,
                        problem + " for " + OutcomeResolver.human(Duration.ofNanos(t - began)));
            }
            try {
                clock.sleep(Math.min(OutcomeResolver.POLL_NANOS, deadlineNanos - t));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(Verdict.INTERRUPTED, "the writer was stopped while asking");
            }
        }
    }

    /** A verdict (null: an INSERT still runs) and, when unknown or not found, why. */
    record Judgement(Verdict verdict, String reason) {}

    /**
     * The group's INSERTs from their attempts' fates: each INSERT written if an attempt was,
     * running if one runs, failed if every attempt failed, else in doubt. An INSERT refused for its
     * content or size was sent in parts ({@code <token>/r<first>-<last>}, {@link InsertParts}); the
     * log does not say how many rows the INSERT had, so whether its parts covered all of them (a
     * run may have died before its last part) cannot be told: such an INSERT with any part written
     * is in doubt, and {@code on_unknown_outcome} decides (docs/adr/0011).
     */
    static Judgement judge(Map<String, Fate> fates) {
        Map<String, List<Fate>> byInsert = new LinkedHashMap<>();
        Map<String, Boolean> inParts = new LinkedHashMap<>();
        int expected = 1;
        for (Map.Entry<String, Fate> e : fates.entrySet()) {
            String id = e.getKey();
            int hash = id.indexOf('#');
            String token = id.substring(0, hash);
            String insert = InsertParts.wholeToken(token);
            byInsert.computeIfAbsent(insert, k -> new ArrayList<>()).add(e.getValue());
            if (!insert.equals(token)) {
                inParts.put(insert, Boolean.TRUE);
            }
            expected = Math.max(expected, insertsOf(id.substring(hash + 1)));
        }
        if (byInsert.isEmpty()) {
            return new Judgement(
                    Verdict.NOT_FOUND, "no replica of the shard has an entry of it in its log");
        }
        int written = 0;
        int failed = 0;
        boolean running = false;
        boolean split = false;
        for (Map.Entry<String, List<Fate>> e : byInsert.entrySet()) {
            List<Fate> attempts = e.getValue();
            boolean parts = inParts.containsKey(e.getKey());
            if (attempts.contains(Fate.RUNNING)) {
                running = true;
            } else if (attempts.stream().allMatch(f -> f == Fate.NOT_WRITTEN)) {
                failed++;
            } else if (parts) {
                split = true; // some part written: all of them, or not — the log cannot tell
            } else if (attempts.contains(Fate.WRITTEN)) {
                written++;
            }
        }
        if (written == byInsert.size() && written >= expected) {
            return new Judgement(Verdict.WRITTEN, null);
        }
        if (running) {
            return new Judgement(null, null);
        }
        if (failed == byInsert.size()) {
            return new Judgement(Verdict.NOT_WRITTEN, null);
        }
        if (split) {
            return new Judgement(
                    Verdict.UNKNOWN,
                    "an INSERT of it was refused and sent in parts, and the query log cannot tell"
                            + " whether every part was sent");
        }
        if (written == byInsert.size()) {
            return new Judgement(
                    Verdict.UNKNOWN,
                    written
                            + " of its "
                            + expected
                            + " INSERTs were written and the others are in no replica's log");
        }
        return new Judgement(
                Verdict.UNKNOWN,
                written
                        + " of its "
                        + expected
                        + " INSERTs were written, and an attempt of another may have written part"
                        + " or all of it (a start without an end, or a failure after rows were"
                        + " written)");
    }

    /** True when {@code queryId} is an attempt of an INSERT of the group {@code groupToken}. */
    static boolean ofGroup(String groupToken, String queryId) {
        if (!queryId.startsWith(groupToken) || queryId.length() == groupToken.length()) {
            return false;
        }
        char next = queryId.charAt(groupToken.length());
        // '/' starts a sub-token (/g<i>, /p<j>); '#' the attempt. Not another shard's: G/k1 is
        // a prefix of G/k10.
        return (next == '#' || next == '/') && queryId.indexOf('#', groupToken.length()) > 0;
    }

    /** How many INSERTs the attempt's batch made: {@code <nonce>.<n>/<of>}, or 1 without it. */
    static int insertsOf(String attempt) {
        int slash = attempt.lastIndexOf('/');
        if (slash < 0) {
            return 1;
        }
        try {
            return Math.max(1, Integer.parseInt(attempt.substring(slash + 1)));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** A replay looks this far back in the query log, as {@link OutcomeResolver} does. */
    private LocalDate since() {
        return LocalDate.ofInstant(Instant.ofEpochMilli(clock.currentTimeMillis()), ZoneOffset.UTC)
                .minusDays(OutcomeResolver.REPLAY_DAYS);
    }
}
