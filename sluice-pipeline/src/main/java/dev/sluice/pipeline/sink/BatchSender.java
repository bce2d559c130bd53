package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.metrics.ShardMetrics;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;

/**
 * Sends a batch to its shard, retrying until it is written, abandoned or fails for good. One per
 * writer thread, with its own connection to each replica.
 *
 * <p>The batch's boundaries were committed with its source before it was handed to the sink
 * (property 2). Before the first attempt it is turned into its INSERTs ({@link BatchShaper}:
 * defaults, pre-sorting, partition split) — once, so every attempt sends the same blocks. Each
 * INSERT carries the batch's deduplication token, with the INSERT's suffix when there are several,
 * to servers that take one, and a query id derived from it ({@link InsertState}). The batch is
 * written when every INSERT is written; a retry resumes at the first INSERT not written, so the
 * written ones are not sent twice even without deduplication. A retryable error ({@link
 * ErrorClass}) is followed by the next replica at once; when every replica of the shard has failed
 * in a row, the writer pauses by {@link Backoff} before the next round. A fatal error, or running
 * out of attempts, stops the pipeline with the server's message.
 *
 * <p>An INSERT interrupted after its data was sent ({@link ErrorClass#INTERRUPTED}) may have been
 * written. Where the table drops repeated blocks it is simply sent again; elsewhere the replica is
 * asked first ({@link OutcomeResolver}): written — it is not sent again; not written — it is;
 * unknown — {@code on_unknown_outcome} decides: {@code resend} (its rows count as possibly written
 * twice, and are looked up once more after the resend is acknowledged) or {@code fail} (the
 * pipeline stops naming the batch's range and query id). A replayed INSERT (after a restart) is
 * looked up the same way before its first attempt, so one an earlier run wrote is not written
 * again. A member of a batch of several partitions replayed alone ({@link
 * SealedBatch#groupToken()}) is first looked up by its group's token on every replica of the shard
 * ({@link GroupLookup}), on every table: the group written — the member is not sent
 * (docs/adr/0011). Counts go to the shard's metrics, and the INSERTs a user must know about to
 * {@link DeliveryNotes}.
 *
 * <p>A server error about the INSERT's rows or size ({@link ErrorClass#CONTENT}, {@link
 * ErrorClass#SIZE}) is not retried as it is: the INSERT is sent as its two halves, each under a
 * sub-token of its own ({@code <token>/r<first>-<last>}, rows of the INSERT's block, so a retry and
 * a replay make the same parts), recursively; a single row still refused is handed to {@link
 * RejectedRows} (dead-lettered with the server's message and its position, or skipped) and the rest
 * is written. A size split is recorded ({@link SplitInserts}) before its halves are sent, so a
 * replay splits the same way. A batch whose attempts keep failing for {@code retry.give_up_after}
 * without any of its INSERTs written stops the pipeline with one line naming the batch, the
 * replica, the last error and what to check (docs/pipeline.md, "Server errors").
 *
 * <p>A batch goes to its own table ({@link SealedBatch#target()}: a writer may serve several), as
 * that table is now. Rows staged for an older layout of it — the table was altered while they were
 * in flight — are re-encoded before they are shaped ({@link Reencoding}): dropped columns left out,
 * added ones left to the server, changed types converted; a row that cannot be converted goes to
 * {@link RejectedRows} with the reason. An INSERT the server refuses as made for another table
 * ({@link ErrorClass#SCHEMA}) has the table described again ({@link InsertTarget#refresh}); if it
 * changed, that INSERT and those after it are re-encoded and sent at once under the same tokens — a
 * token names a batch's rows, not their encoding, and a refused INSERT wrote nothing — else the
 * error counts as it would without the check (docs/writer.md, "Tables that change").
 */
public final class BatchSender implements AutoCloseable {
    /** The look-up after a resend of an INSERT whose outcome was unknown waits at most this. */
    private static final Duration RECHECK_LIMIT = Duration.ofSeconds(30);

    /** Times one batch may find its table changed before the writer gives up following it. */
    private static final int MAX_TABLE_CHANGES = 5;

    private final int shard;
    private final Replicas replicas;
    private final Backoff backoff;
    private final Clock clock;
    private final ShardMetrics metrics;
    private final SinkSupervisor supervisor;
    private final TraceLookup lookup;
    private final Map<String, String> userSettings;
    private final UnresolvedInserts unresolved;
    private final DeliveryNotes notes;
    private final String nonce;
    private final SplitInserts splits;
    private final RejectedRows rejected;
    private final InsertParts parts = new InsertParts();

    /** The table of the constructor: batches that name none go there. */
    private final TableState fixed;

    /** The tables of batches that name theirs, as last seen. */
    private final Map<InsertTarget, TableState> tables = new HashMap<>();

    /** Makes a shaper for a table's plan; null when only the constructor's table is served. */
    private Function<InsertPlan, BatchShaper> shapers;

    // The batch being sent's table, as last described: set by use() for each batch.
    private InsertTarget target;
    private InsertTarget.Layout layout;
    private String table;
    private Map<String, String> settings;
    private BatchShaper shaper;
    private OutcomePolicy policy;
    private OutcomeResolver resolver;

    /** The settings of a batch of several partitions' INSERTs: logged on every table. */
    private Map<String, String> groupSettings;

    private GroupLookup groups;

    /** Set by {@link #tableChanged} when the table could not be described now (retried). */
    private boolean schemaRetry;

    /** Times the batch being sent found its table changed. */
    private int tableChanges;

    /** Whether the batch being sent is pre-sorted: decided by {@link #send} for each batch. */
    private PresortDecision presort = PresortDecision.OFF;

    /** The server of the last attempt: whether it takes deduplication tokens. */
    private ServerInfo lastServer;

    /**
     * One table as this writer sends to it: what follows from its layout, built once per layout.
     */
    private record TableState(
            InsertTarget.Layout layout,
            String table,
            Map<String, String> settings,
            BatchShaper shaper,
            OutcomePolicy policy,
            OutcomeResolver resolver,
            Map<String, String> groupSettings,
            GroupLookup groups) {}

    /**
     * @param nonce this pipeline start's mark in query ids, telling its attempts from earlier runs'
     */
    BatchSender(
            int shard,
            String table,
            Map<String, String> settings,
            Replicas replicas,
            Backoff backoff,
            Clock clock,
            BatchShaper shaper,
            ShardMetrics metrics,
            SinkSupervisor supervisor,
            OutcomePolicy policy,
            TraceLookup lookup,
            UnresolvedInserts unresolved,
            DeliveryNotes notes,
            String nonce,
            SplitInserts splits,
            RejectedRows rejected) {
        this.shard = shard;
        this.userSettings = Map.copyOf(settings);
        this.replicas = replicas;
        this.backoff = backoff;
        this.clock = clock;
        this.metrics = metrics;
        this.supervisor = supervisor;
        this.lookup = lookup;
        this.unresolved = unresolved;
        this.notes = notes;
        this.nonce = nonce;
        this.splits = splits;
        this.rejected = rejected;
        this.fixed =
                shaper == null
                        ? null // every batch names its table
                        : new TableState(
                                null,
                                table,
                                settingsOf(policy),
                                shaper,
                                policy,
                                new OutcomeResolver(lookup, clock, policy.logging(), nonce),
                                groupSettingsOf(policy),
                                new GroupLookup(lookup, clock, policy.logging()));
        if (fixed != null) {
            use(null);
        }
    }

    /**
     * Serves batches that name their table ({@link SealedBatch#target()}) too, each with a shaper
     * {@code shapers} makes for the table's plan.
     */
    BatchSender shapers(Function<InsertPlan, BatchShaper> shapers) {
        this.shapers = shapers;
        return this;
    }

    /** The INSERT settings for a table where {@code policy} holds: the user's own win. */
    private Map<String, String> settingsOf(OutcomePolicy policy) {
        Map<String, String> s = new HashMap<>(policy.insertSettings());
        s.putAll(userSettings); // the user's own settings win (start-up looked at them)
        return Map.copyOf(s);
    }

    /**
     * The settings of a batch of several partitions' INSERTs for a table where {@code policy}
     * holds: query-logged on every table (docs/adr/0011); the user's own win.
     */
    private Map<String, String> groupSettingsOf(OutcomePolicy policy) {
        Map<String, String> g = new HashMap<>(policy.groupInsertSettings());
        g.putAll(settingsOf(policy));
        return Map.copyOf(g);
    }

    /** Points the sender at {@code t}'s table as last described (null: the constructor's). */
    private void use(InsertTarget t) {
        TableState state = fixed;
        if (t == null && fixed == null) {
            throw new IllegalStateException("a batch of this sink must name its table (a bug)");
        }
        if (t != null) {
            InsertTarget.Layout now = t.layout();
            state = tables.get(t);
            if (state == null || state.layout() != now) {
                OutcomePolicy p = now.policies().get(shard);
                state =
                        new TableState(
                                now,
                                t.table(),
                                settingsOf(p),
                                shapers.apply(now.plan()),
                                p,
                                new OutcomeResolver(lookup, clock, p.logging(), nonce),
                                groupSettingsOf(p),
                                new GroupLookup(lookup, clock, p.logging()));
                tables.put(t, state);
            }
        }
        target = t;
        layout = state.layout();
        table = state.table();
        settings = state.settings();
        shaper = state.shaper();
        policy = state.policy();
        resolver = state.resolver();
        groupSettings = state.groupSettings();
        groups = state.groups();
    }

    /** What to do with a replayed INSERT after looking it up. */
    private enum Replay {
        SEND,
        SKIP,
        STOP
    }

    /**
     * Sends {@code batch} as a writer with no batch waiting behind it; like {@link
     * #send(SealedBatch, boolean)}.
     */
    public SealedBatch.Outcome send(SealedBatch batch) {
        return send(batch, false);
    }

    /**
     * Sends {@code batch}; never throws. A fatal failure is reported to the supervisor.
     *
     * @param backlog the writer's queue holds at least one more sealed batch behind this one (for
     *     {@code presort: auto}: {@link PresortDecision})
     */
    public SealedBatch.Outcome send(SealedBatch batch, boolean backlog) {
        try {
            try {
                use(shapers == null ? null : batch.target());
            } catch (RuntimeException e) {
                return fatal(batch, "cannot send " + batch + ": " + e.getMessage(), e);
            }
            tableChanges = 0;
            // Decided once, here, and kept for every attempt of the batch (PresortDecision).
            presort = shaper.plan().presortFor(backlog);
            return write(batch);
        } finally {
            parts.clear(); // a copy of a part's rows is not kept past its batch
        }
    }

    private SealedBatch.Outcome write(SealedBatch batch) {
        List<BatchShaper.Insert> inserts;
        try {
            inserts = shapeForTable(batch);
        } catch (RuntimeException e) {
            return fatal(batch, "cannot make the INSERTs of " + batch + ": " + e.getMessage(), e);
        }
        if (inserts == null) {
            return SealedBatch.Outcome.ABANDONED; // a row that could not be re-encoded stopped it
        }
        // What is left to send, in order: the INSERTs, and the parts of those sent in halves.
        List<InsertParts.Unit> units = new ArrayList<>(inserts.size());
        for (int i = 0; i < inserts.size(); i++) {
            units.add(
                    InsertParts.whole(
                            inserts.get(i),
                            batch.token() + inserts.get(i).tokenSuffix(),
                            i,
                            inserts.size()));
        }
        String memberDoubt = null; // why a member sent alone may be in the table already
        if (batch.groupToken() != null && !units.isEmpty()) {
            GroupLookup.Result g = lookUpGroup(batch);
            switch (g.verdict()) {
                case WRITTEN -> {
                    metrics.checks(OutcomeCheck.WRITTEN).inc();
                    for (InsertParts.Unit unit : units) {
                        alreadyWritten(unit.state());
                    }
                    return SealedBatch.Outcome.WRITTEN;
                }
                case NOT_WRITTEN -> metrics.checks(OutcomeCheck.NOT_WRITTEN).inc();
                case NOT_FOUND -> {} // never reached a replica, as far as their logs tell
                case UNKNOWN -> {
                    metrics.checks(OutcomeCheck.UNKNOWN).inc();
                    if (policy.onUnknown() == OnUnknownOutcome.FAIL) {
                        return giveUp(
                                batch, units.get(0).state(), groupUnknown(batch, g.reason()), null);
                    }
                    metrics.retries(RetryReason.UNKNOWN).inc();
                    memberDoubt = g.reason();
                }
                case INTERRUPTED -> {
                    return giveUp(batch, units.get(0).state(), null, null);
                }
            }
        }
        int next = 0; // the first unit not written (nor rejected) yet
        int attempts = 0;
        int failuresInRow = 0;
        int round = 0;
        boolean split = false;
        long failingSince = -1; // when the attempts that failed since the last progress began
        while (true) {
            if (next == units.size()) {
                // the last INSERT was found written after an interruption
                return written(batch, units, memberDoubt);
            }
            if ((attempts > 0 || split) && supervisor.abandonQueued()) {
                return giveUp(batch, units.get(next).state(), null, null);
            }
            String replica = replicas.describe();
            String url = replicas.url();
            long tried = clock.nanoTime();
            try {
                BlockInserter inserter = replicas.connection();
                lastServer = inserter.server();
                while (next < units.size()) {
                    InsertParts.Unit unit = units.get(next);
                    InsertState state = unit.state();
                    if (unit.rows() > 1 && splits.contains(state.token)) {
                        // An earlier run sent it in halves (its size was refused): so does this
                        // one,
                        // so the halves it wrote are dropped or found written, not sent again
                        // whole.
                        metrics.sizeSplits.inc();
                        halve(units, next, batch);
                        continue;
                    }
                    Block block = parts.block(unit);
                    state.bytes = block.dataBytes();
                    if (batch.replayed() && !state.replayChecked) {
                        Replay r = checkReplay(batch, state, url, replica);
                        if (r == Replay.STOP) {
                            return SealedBatch.Outcome.ABANDONED;
                        }
                        if (r == Replay.SKIP) {
                            alreadyWritten(state);
                            next++;
                            continue;
                        }
                    }
                    String queryId = state.nextQueryId(nonce);
                    tried = clock.nanoTime();
                    InsertResult result =
                            inserter.insert(
                                    table,
                                    block,
                                    settingsFor(inserter.server(), state.token, batch),
                                    queryId);
                    long end = clock.nanoTime();
                    metrics.insertSeconds.observe((end - tried) / 1e9);
                    metrics.wireBytes.inc(result.wireBytes());
                    state.copies++;
                    written(batch, state);
                    next++;
                    failuresInRow = 0;
                    failingSince = -1;
                }
                return written(batch, units, memberDoubt);
            } catch (RuntimeException e) {
                ErrorClass kind = ErrorClass.of(e);
                metrics.errors(kind).inc();
                if (kind == ErrorClass.SCHEMA) {
                    String stop = tableChanged(batch, units, next, replica, e);
                    if (stop == null) {
                        continue; // re-encoded for the table as it is now: sent at once
                    }
                    if (!stop.isEmpty()) {
                        return giveUp(batch, units.get(next).state(), stop, e);
                    }
                    // "": unchanged, or not described now — as without the check, retried if it
                    // may pass (a shard that did not answer, shards not agreeing yet)
                    kind = schemaRetry ? ErrorClass.SERVER : ErrorClass.unchanged(e);
                }
                if (kind.brokeConnection()) {
                    replicas.discard();
                }
                if (kind.splits()) {
                    InsertParts.Unit unit = units.get(next);
                    String stop = splitOrReject(batch, unit, kind, e, replica);
                    if (stop != null) {
                        return giveUp(batch, unit.state(), stop, e);
                    }
                    if (unit.rows() > 1) {
                        halve(units, next, batch);
                        split = true;
                    } else {
                        next++; // rejected and handed to the error policy: the rest goes on
                        failingSince = -1;
                    }
                    continue; // at once, on the same replica: nothing here passes with time
                }
                attempts++;
                if (!kind.retryable()) {
                    return giveUp(
                            batch,
                            units.get(next).state(),
                            describe(replica, batch) + ": " + e.getMessage(),
                            e);
                }
                if (failingSince < 0) {
                    failingSince = tried;
                }
                RetryReason reason =
                        kind == ErrorClass.SERVER ? RetryReason.SERVER : RetryReason.CONNECTION;
                if (kind == ErrorClass.INTERRUPTED) {
                    InsertState state = units.get(next).state();
                    if (policy.deduplicates()) {
                        reason = RetryReason.DEDUPLICATED;
                        state.interrupted =
                                new InsertState.Doubt(
                                        ((InsertOutcomeUnknownException) e).queryId(), url);
                    } else {
                        String queryId = ((InsertOutcomeUnknownException) e).queryId();
                        state.doubts.add(new InsertState.Doubt(queryId, url));
                        OutcomeResolver.Result r =
                                resolver.resolve(
                                        state,
                                        url,
                                        clock.nanoTime() + policy.timeout().toNanos(),
                                        true);
                        switch (r.verdict()) {
                            case WRITTEN -> {
                                metrics.checks(OutcomeCheck.WRITTEN).inc();
                                state.copies += r.copies();
                                written(batch, state);
                                next++;
                                failuresInRow = 0;
                                failingSince = -1;
                                continue; // on with the next INSERT, over a new connection
                            }
                            case NOT_WRITTEN, NOT_FOUND -> {
                                metrics.checks(OutcomeCheck.NOT_WRITTEN).inc();
                                reason = RetryReason.NOT_WRITTEN;
                            }
                            case UNKNOWN -> {
                                metrics.checks(OutcomeCheck.UNKNOWN).inc();
                                if (policy.onUnknown() == OnUnknownOutcome.FAIL) {
                                    return stopUnknown(batch, state, replica, e, r.reason());
                                }
                                reason = RetryReason.UNKNOWN;
                                state.doubtReason = r.reason();
                            }
                            case INTERRUPTED -> {
                                return giveUp(batch, state, null, null);
                            }
                        }
                    }
                }
                if (backoff.exhausted(attempts)) {
                    return giveUp(
                            batch,
                            units.get(next).state(),
                            describe(replica, batch)
                                    + ": gave up after "
                                    + attempts
                                    + " attempts; last error: "
                                    + e.getMessage(),
                            e);
                }
                long now = clock.nanoTime();
                if (backoff.givesUp(failingSince, now)) {
                    return giveUp(
                            batch,
                            units.get(next).state(),
                            GiveUp.message(
                                    shard,
                                    replica,
                                    table,
                                    where(batch, units.get(next).state()),
                                    now - failingSince,
                                    attempts,
                                    kind,
                                    e),
                            e);
                }
                metrics.retries(reason).inc();
                replicas.next();
                if (++failuresInRow >= replicas.size()) {
                    failuresInRow = 0;
                    try {
                        clock.sleep(
                                backoff.delayWithin(
                                        backoff.delayNanos(++round), failingSince, now));
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt(); // the drain deadline passed
                        return giveUp(batch, units.get(next).state(), null, null);
                    }
                }
            }
        }
    }

    /**
     * Replaces unit {@code next} by its two halves. A whole INSERT of a batch {@code auto} left
     * unsorted is sorted first, so its halves are cut from the order every run cuts them from
     * ({@link PresortDecision}): their sub-tokens name rows by position.
     */
    private void halve(List<InsertParts.Unit> units, int next, SealedBatch batch) {
        InsertParts.Unit unit = units.get(next);
        if (presort == PresortDecision.SKIP_NO_BACKLOG && unit.whole()) {
            BatchShaper.Insert sorted = shaper.sortedForHalving(unit.insert(), batch.nowSeconds());
            unit = new InsertParts.Unit(sorted, unit.token(), 0, unit.to(), unit.state());
        }
        units.set(next, unit.left());
        units.add(next + 1, unit.right());
    }

    /**
     * The batch's INSERTs. Rows staged for another layout of their table than the one it has now
     * are re-encoded first ({@link Reencoding#toColumns}); rows that cannot be are handed to {@link
     * RejectedRows}. Null when one of them stops the batch (reported to the supervisor).
     */
    private List<BatchShaper.Insert> shapeForTable(SealedBatch batch) {
        if (layout == null) {
            return shaper.shape(batch, presort);
        }
        Block block = batch.block();
        Reencoding.Result re =
                Reencoding.toColumns(
                        block,
                        batch.absentRows(),
                        layout.columns().columns(),
                        layout.plan().zone());
        if (re == null) {
            return shaper.shape(batch, presort);
        }
        metrics.rowsReencoded.inc(block.rows());
        String stop = refuse(batch, block, re.refused(), r -> r);
        if (stop != null) {
            fatal(batch, stop, null);
            return null;
        }
        int[] kept = re.kept();
        List<BatchShaper.Insert> inserts = new ArrayList<>();
        if (kept.length == 0) {
            return inserts; // every row went to the error policy: nothing to send
        }
        for (BatchShaper.Insert i :
                shaper.shape(re.block(), re.absent(), batch.nowSeconds(), presort)) {
            IntUnaryOperator origin = i.origin();
            inserts.add(
                    new BatchShaper.Insert(
                            i.block(), i.tokenSuffix(), r -> kept[origin.applyAsInt(r)]));
        }
        return inserts;
    }

    /**
     * The server refused INSERT {@code next} as made for another table: the table is described
     * again ({@link InsertTarget#refresh}), and when it changed, that INSERT and those after it are
     * re-encoded for it ({@link Reencoding#forTable}) under the same tokens — their rows and
     * positions are the batch's; what differs is only how they are encoded, and a refused INSERT
     * wrote nothing. Rows that cannot be converted go to {@link RejectedRows}; an INSERT left
     * without rows is dropped.
     *
     * @return null when re-encoded (send again at once); "" when the table is unchanged, or cannot
     *     be described now ({@link #schemaRetry}); otherwise why the batch stops
     */
    private String tableChanged(
            SealedBatch batch,
            List<InsertParts.Unit> units,
            int next,
            String replica,
            RuntimeException refusal) {
        schemaRetry = false;
        if (target == null) {
            return ""; // a table this sender cannot describe again: the error is what it says
        }
        boolean changed;
        try {
            changed = target.refresh(layout, refusal);
        } catch (InsertTarget.TableChangeException e) {
            if (e.retryable()) {
                schemaRetry = true;
                return "";
            }
            return describe(replica, batch) + ": " + refusal.getMessage() + "; " + e.getMessage();
        }
        if (!changed) {
            return "";
        }
        if (++tableChanges > MAX_TABLE_CHANGES) {
            return describe(replica, batch)
                    + ": the table changed "
                    + tableChanges
                    + " times while this batch was being sent; last refusal: "
                    + refusal.getMessage();
        }
        use(target);
        TableSchema now = layout.columns().table();
        for (int i = next; i < units.size(); ) {
            InsertParts.Unit unit = units.get(i);
            Block block = parts.block(unit);
            Reencoding.Result re = Reencoding.forTable(block, now, layout.plan().zone());
            if (re == null) {
                i++;
                continue;
            }
            metrics.rowsReencoded.inc(block.rows());
            String stop = refuse(batch, block, re.refused(), unit::origin);
            if (stop != null) {
                return stop;
            }
            if (re.block().rows() == 0) {
                units.remove(i); // every row went to the error policy
                continue;
            }
            InsertParts.Unit again = InsertParts.reencoded(unit, re.block(), re.kept());
            InsertState state = again.state();
            if (state.interrupted != null
                    && (lastServer == null || !lastServer.supportsInsertDeduplicationToken())) {
                // That copy may be in the table, and a server that compares blocks (no token)
                // does not know the re-encoded one: never a silent second copy.
                state.doubts.add(state.interrupted);
                state.doubtReason =
                        "an attempt of it was interrupted before "
                                + table
                                + " was altered, and the table drops a repeated block only when"
                                + " it is identical; the one sent after the change is re-encoded";
            }
            units.set(i, again);
            i++;
        }
        return null;
    }

    /**
     * Hands rows of {@code block} that could not be re-encoded to {@link RejectedRows}; {@code
     * origin} maps a row of the block to its row in the batch. Null when all were handled (counted
     * as rejected), otherwise why the batch stops.
     */
    private String refuse(
            SealedBatch batch,
            Block block,
            List<Reencoding.Refused> refused,
            IntUnaryOperator origin) {
        for (Reencoding.Refused f : refused) {
            SealedBatch.RowSource source = batch.source(origin.applyAsInt(f.row()));
            String stop =
                    rejected.reject(source, InsertParts.renderRow(block, f.row()), f.reason());
            if (stop != null) {
                return "shard "
                        + shard
                        + " on "
                        + batch.describeRange()
                        + ": "
                        + stop
                        + " (a row of "
                        + source.partition()
                        + " at position "
                        + source.position()
                        + ", staged before "
                        + table
                        + " was altered)";
            }
            metrics.rowsRejected.inc();
        }
        return null;
    }

    /**
     * The group a member replayed alone belonged to, looked up on every replica of the shard: where
     * the server keeps no log of sluice's INSERTs, its outcome is unknown.
     */
    private GroupLookup.Result lookUpGroup(SealedBatch batch) {
        if (!policy.looksUpGroups()) {
            return new GroupLookup.Result(GroupLookup.Verdict.UNKNOWN, policy.logging().detail());
        }
        return groups.look(
                batch.groupToken(), replicas.urls(), clock.nanoTime() + policy.timeout().toNanos());
    }

    /**
     * The batch is written: counted, and — a member sent alone while its group's outcome was
     * unknown — its rows this run wrote counted as possibly written twice.
     */
    private SealedBatch.Outcome written(
            SealedBatch batch, List<InsertParts.Unit> units, String memberDoubt) {
        countBatch(units);
        if (memberDoubt != null) {
            long rows = 0;
            for (InsertParts.Unit u : units) {
                if (u.state().copies > 0) {
                    rows += u.state().rows;
                }
            }
            if (rows > 0) {
                metrics.rowsPossiblyDuplicated.inc(rows);
                notes.add(
                        batch.describeRange()
                                + ": may be in the table twice — sent alone, though it was part"
                                + " of a batch of several partitions (query_ids starting '"
                                + batch.groupToken()
                                + "') whose outcome is unknown: "
                                + memberDoubt);
            }
        }
        return SealedBatch.Outcome.WRITTEN;
    }

    /** Why the pipeline stops at a member whose group's outcome is unknown, and what to check. */
    private String groupUnknown(SealedBatch batch, String why) {
        return "the outcome of an INSERT is unknown: "
                + batch.describeRange()
                + " was part of a batch of several partitions sent to shard "
                + shard
                + " in an earlier run (query_ids starting '"
                + batch.groupToken()
                + "'), and "
                + why
                + ". Sent alone it would be written twice if that batch was written, so it is not"
                + " sent. On every replica of the shard: SELECT query_id, type, written_rows FROM"
                + " system.query_log WHERE startsWith(query_id, '"
                + batch.groupToken()
                + "') — QueryFinish (2) with rows for each of its INSERTs means written; resuming"
                + " looks it up again, and on_unknown_outcome: resend (--on-unknown-outcome"
                + " resend) sends it anyway";
    }

    /**
     * After a content or size refusal of {@code unit}: records a size split before its halves are
     * sent, or hands its one row to the error policy. Returns null to go on, or why the pipeline
     * must stop: a rejection under {@code errors.policy: fail}, more than {@code max_errors}, a
     * split that cannot be recorded.
     */
    private String splitOrReject(
            SealedBatch batch,
            InsertParts.Unit unit,
            ErrorClass kind,
            RuntimeException e,
            String replica) {
        InsertState state = unit.state();
        String server = serverError(e);
        if (kind == ErrorClass.CONTENT && !rejected.bisects()) {
            return describe(replica, batch)
                    + ": the server rejected rows of "
                    + where(batch, state)
                    + " for their content: "
                    + server
                    + " ("
                    + rejected.howToBisect()
                    + ")";
        }
        if (unit.rows() > 1) {
            if (kind == ErrorClass.SIZE) {
                try {
                    splits.add(state.token);
                } catch (IOException io) {
                    return describe(replica, batch)
                            + ": the server refused the size of "
                            + where(batch, state)
                            + " ("
                            + server
                            + "), and sending it in halves cannot be recorded in the checkpoint"
                            + " directory: "
                            + io.getMessage();
                }
                metrics.sizeSplits.inc();
            } else {
                metrics.contentSplits.inc();
            }
            return null;
        }
        // One row, still refused: its content, or a size no block of it can get under.
        String reason =
                kind == ErrorClass.SIZE
                        ? server + " (the row alone is too large for the server's limits)"
                        : server;
        SealedBatch.RowSource source = batch.source(unit.origin(0));
        String stop;
        if (!rejected.bisects()) {
            stop =
                    describe(replica, batch)
                            + ": the server refused a single row ("
                            + source.partition()
                            + " position "
                            + source.position()
                            + "): "
                            + reason;
        } else {
            stop = rejected.reject(source, parts.render(unit), reason);
            if (stop != null) {
                stop =
                        describe(replica, batch)
                                + ": "
                                + stop
                                + " (a row of "
                                + source.partition()
                                + " at position "
                                + source.position()
                                + ")";
            }
        }
        if (stop == null) {
            metrics.rowsRejected.inc();
        }
        return stop;
    }

    /** The server's error without the client's context: {@code ClickHouse error N (NAME): ...}. */
    private static String serverError(RuntimeException e) {
        String m = e.getMessage();
        int at = m == null ? -1 : m.indexOf("ClickHouse error ");
        return at >= 0 ? m.substring(at) : String.valueOf(m);
    }

    /**
     * Looks a replayed INSERT up before its first attempt in this run: written by an earlier run —
     * skip it; running — wait; failed, or nothing of it on the server — send it (a plain replay);
     * unknown, or nothing found of an INSERT an earlier run left unresolved — by the policy.
     *
     * @throws RuntimeException when the server does not answer: retried like a failed attempt
     */
    private Replay checkReplay(SealedBatch batch, InsertState state, String url, String replica) {
        if (policy.deduplicates()) {
            state.replayChecked = true;
            unresolved.remove(state.token);
            return Replay.SEND;
        }
        boolean recorded = unresolved.contains(state.token);
        OutcomeResolver.Result r;
        if (policy.looksUp()) {
            state.doubts.add(new InsertState.Doubt(null, url));
            try {
                r =
                        resolver.resolve(
                                state, url, clock.nanoTime() + policy.timeout().toNanos(), false);
            } catch (RuntimeException e) {
                state.doubts.clear(); // asked again before the next attempt
                throw e;
            }
        } else {
            r =
                    new OutcomeResolver.Result(
                            OutcomeResolver.Verdict.NOT_FOUND, 0, policy.logging().detail());
        }
        state.replayChecked = true;
        switch (r.verdict()) {
            case WRITTEN -> {
                state.doubts.clear();
                metrics.checks(OutcomeCheck.WRITTEN).inc();
                return Replay.SKIP; // any extra copies were that run's to count
            }
            case NOT_WRITTEN -> {
                metrics.checks(OutcomeCheck.NOT_WRITTEN).inc();
                metrics.retries(RetryReason.NOT_WRITTEN).inc();
                unresolved.remove(state.token);
                return Replay.SEND;
            }
            case NOT_FOUND -> {
                state.doubts.clear();
                if (!recorded && policy.looksUp()) {
                    return Replay.SEND; // never reached the server, as far as its log tells
                }
                if (!recorded) {
                    // Nothing can tell whether the earlier run wrote it: sent again, as replays
                    // are (at-least-once), but counted as possibly twice — never silently.
                    state.doubts.add(new InsertState.Doubt(null, url));
                    state.doubtReason =
                            "replayed after a restart; an earlier run may have written it, and "
                                    + policy.logging().detail();
                    metrics.retries(RetryReason.UNKNOWN).inc();
                    return Replay.SEND;
                }
                r =
                        new OutcomeResolver.Result(
                                OutcomeResolver.Verdict.UNKNOWN,
                                0,
                                "that run left its outcome unknown, and "
                                        + (policy.logging().usable()
                                                ? "the server's query log has no entry for it"
                                                : policy.logging().detail()));
            }
            case INTERRUPTED -> {
                giveUp(batch, state, null, null);
                return Replay.STOP;
            }
            case UNKNOWN -> {}
        }
        metrics.checks(OutcomeCheck.UNKNOWN).inc();
        if (state.doubts.isEmpty()) {
            state.doubts.add(new InsertState.Doubt(null, url));
        }
        if (policy.onUnknown() == OnUnknownOutcome.FAIL) {
            stopUnknown(batch, state, replica, null, r.reason());
            return Replay.STOP;
        }
        metrics.retries(RetryReason.UNKNOWN).inc();
        state.doubtReason = r.reason();
        return Replay.SEND;
    }

    /**
     * {@code state} is known written (its {@code copies} attempts): counts its rows once, looks up
     * once more the attempts still in doubt, and counts their rows as written twice or possibly
     * twice.
     */
    private void written(SealedBatch batch, InsertState state) {
        if (!state.doubts.isEmpty()) {
            recheck(state);
        }
        metrics.records.inc(state.rows);
        metrics.bytes.inc(state.bytes);
        metrics.inserts.inc();
        if (state.copies > 1) {
            long extra = (long) (state.copies - 1) * state.rows;
            metrics.rowsDuplicated.inc(extra);
            notes.add(
                    where(batch, state)
                            + ": written "
                            + (state.copies == 2 ? "twice" : state.copies + " times")
                            + " — sent again after its outcome stayed unknown, and the server's"
                            + " log shows every copy (query_ids starting '"
                            + state.prefix()
                            + "')");
        }
        if (!state.doubts.isEmpty()) {
            long extra = (long) state.doubts.size() * state.rows;
            metrics.rowsPossiblyDuplicated.inc(extra);
            notes.add(
                    where(batch, state)
                            + ": may be in the table twice — sent again after its outcome stayed"
                            + " unknown ("
                            + String.join(", ", state.doubtIds())
                            + (state.doubtReason != null ? ": " + state.doubtReason : "")
                            + ")");
        }
        unresolved.remove(state.token);
    }

    /**
     * A replayed INSERT an earlier run wrote: not sent again, and its rows are that run's — counted
     * apart, not as written by this one.
     */
    private void alreadyWritten(InsertState state) {
        metrics.rowsAlreadyWritten.inc(state.rows);
        unresolved.remove(state.token);
    }

    /** A batch counts as written by this run when this run wrote any of its INSERTs. */
    private void countBatch(List<InsertParts.Unit> units) {
        for (InsertParts.Unit u : units) {
            if (u.state().copies > 0) {
                metrics.batches.inc();
                return;
            }
        }
    }

    /** After a resend: the server answers again, so the doubtful attempts may be known now. */
    private void recheck(InsertState state) {
        long deadline =
                clock.nanoTime() + Math.min(policy.timeout().toNanos(), RECHECK_LIMIT.toNanos());
        Set<String> urls = new LinkedHashSet<>();
        for (InsertState.Doubt d : state.doubts) {
            urls.add(d.url());
        }
        for (String url : urls) {
            OutcomeResolver.Result r = resolver.resolve(state, url, deadline, true);
            if (r.verdict() == OutcomeResolver.Verdict.WRITTEN) {
                state.copies += r.copies();
            }
        }
    }

    /** Stops the pipeline under {@code on_unknown_outcome: fail}, naming what to check. */
    private SealedBatch.Outcome stopUnknown(
            SealedBatch batch, InsertState state, String replica, RuntimeException e, String why) {
        StringBuilder m = new StringBuilder();
        m.append("the outcome of an INSERT is unknown: ")
                .append(where(batch, state))
                .append(" went to shard ")
                .append(shard)
                .append(" (")
                .append(replica)
                .append(")");
        if (state.lastQueryId != null) {
            m.append(" as query_id '").append(state.lastQueryId).append("'");
        } else {
            m.append(" in an earlier run, as query_ids starting '")
                    .append(state.prefix())
                    .append("'");
        }
        if (e != null) {
            m.append("; the connection failed after its data was sent (")
                    .append(cause(e))
                    .append("), and ");
        } else {
            m.append(": ");
        }
        m.append(why).append(". ");
        if (policy.logging().usable()) {
            m.append("Resuming looks it up on the server again before sending it (on that")
                    .append(" server: SELECT type, written_rows, exception FROM system.query_log")
                    .append(" WHERE startsWith(query_id, '")
                    .append(state.prefix())
                    .append("'); QueryFinish (2) means written); if the server still cannot")
                    .append(" tell, it stops here again");
        } else {
            m.append("Check whether these rows are in ")
                    .append(table)
                    .append(": if not, resume with on_unknown_outcome: resend")
                    .append(" (--on-unknown-outcome resend) to send them again; if they are,")
                    .append(" resending writes them twice");
        }
        return giveUp(batch, state, m.toString(), e);
    }

    /**
     * Ends the batch unwritten. An INSERT whose outcome is unknown is recorded, so that a resumed
     * run looks it up before sending it again, and its rows are counted as unresolved. With a
     * {@code message}, the pipeline stops with it.
     */
    private SealedBatch.Outcome giveUp(
            SealedBatch batch, InsertState state, String message, RuntimeException cause) {
        String recordFailure = null;
        if (!state.doubts.isEmpty()) {
            IOException e = unresolved.add(state.token);
            if (e != null) {
                recordFailure =
                        "; could not record it in the checkpoint directory ("
                                + e.getMessage()
                                + ")";
            }
            metrics.rowsUnresolved.inc(state.rows);
            notes.add(
                    where(batch, state)
                            + ": outcome unknown, not sent again ("
                            + String.join(", ", state.doubtIds())
                            + ")");
        }
        if (message != null) {
            supervisor.fatal(
                    batch, recordFailure == null ? message : message + recordFailure, cause);
        }
        return SealedBatch.Outcome.ABANDONED;
    }

    private Map<String, String> settingsFor(ServerInfo server, String token, SealedBatch batch) {
        Map<String, String> s = new HashMap<>(batch.gathersPartitions() ? groupSettings : settings);
        if (server.supportsInsertDeduplicationToken()) {
            s.put("insert_deduplicate", "1");
            s.put("insert_deduplication_token", token);
        }
        if (server.supportsAsyncInsert()) {
            // An asynchronous insert is acknowledged when buffered unless the client waits; keep
            // the acknowledgement durable (property 1) unless the user chose otherwise.
            s.putIfAbsent("async_insert", "0");
        }
        return s;
    }

    /**
     * The batch's range and rows, which INSERT of it when there are several, and which of its rows
     * when it was sent in halves.
     */
    private static String where(SealedBatch batch, InsertState state) {
        return batch.describeRange()
                + " ("
                + String.format(java.util.Locale.ROOT, "%,d", state.rows)
                + " rows"
                + (state.part != null ? ", " + state.part : "")
                + (state.of > 1 ? ", INSERT " + (state.index + 1) + " of " + state.of : "")
                + ")";
    }

    private static String cause(RuntimeException e) {
        Throwable c = e.getCause() != null ? e.getCause() : e;
        return c.getMessage();
    }

    private String describe(String replica, SealedBatch batch) {
        return "shard " + shard + " (" + replica + ") failed on " + batch.describeRange();
    }

    private SealedBatch.Outcome fatal(SealedBatch batch, String message, Throwable cause) {
        supervisor.fatal(batch, message, cause);
        return SealedBatch.Outcome.ABANDONED;
    }

    @Override
    public void close() {
        replicas.close();
    }
}
