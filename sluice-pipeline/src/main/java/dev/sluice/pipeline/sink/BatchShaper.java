package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.defaults.DefaultFiller;
import dev.sluice.clickhouse.defaults.DefaultGroups;
import dev.sluice.clickhouse.defaults.DefaultsPlan;
import dev.sluice.clickhouse.expr.UnsupportedValueException;
import dev.sluice.clickhouse.sort.PartitionSplitter;
import dev.sluice.clickhouse.sort.Presorter;
import dev.sluice.pipeline.metrics.Metrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * Turns a sealed batch into the INSERTs that write it:
 *
 * <ol>
 *   <li>columns no row of the batch has are left out, so the server fills them (no copy: the sent
 *       block shares the batch's columns);
 *   <li>the DEFAULTs of columns only some rows lack are computed for those rows ({@link
 *       DefaultFiller}); rows lacking a column whose DEFAULT is not computed here go in INSERTs of
 *       their own without that column, one per combination of such columns ({@link DefaultGroups}),
 *       so the server computes it;
 *   <li>when the batch is pre-sorted ({@link PresortDecision}, decided by the writer), each block
 *       is put in sorting-key order ({@link Presorter});
 *   <li>with partition split, each block is split by partition key ({@link PartitionSplitter}).
 * </ol>
 *
 * When that makes several INSERTs, each gets a token suffix, {@code /g<i>} per default group and
 * {@code /p<j>} per partition, numbered in an order that depends only on the batch's rows, so a
 * retry or a replay sends the same blocks under the same tokens (property 2).
 *
 * <p>Runs on the writer thread, once per batch, before the first attempt. The writers, not the
 * pipeline threads, pay for it: a pipeline thread decodes every record (the usual bottleneck, and
 * serial per source), while writers mostly wait for the server and there are {@code
 * inflight_per_shard} of them per shard, so the work overlaps with decoding of the next batches. A
 * writer also sends the sorted or split copy and is done with it before taking its next batch, so
 * one reused copy per writer suffices, where the pipeline thread would have to keep one per batch
 * in flight.
 *
 * <p>One per writer thread: it keeps fillers, sorters, splitters and their blocks per block shape
 * (the set of columns sent); the blocks returned are valid until the next {@link #shape} call.
 */
final class BatchShaper {
    /** Block shapes kept at most; more are rebuilt when needed (rare: shapes vary little). */
    private static final int MAX_SHAPES = 32;

    /**
     * One INSERT.
     *
     * @param tokenSuffix appended to the batch's deduplication token; "" when the batch is one
     *     INSERT
     * @param origin for each row of {@code block}, its row in the batch's block (and so its
     *     record's position, {@link SealedBatch#source}); valid, like the block, until the next
     *     {@link #shape}
     */
    record Insert(Block block, String tokenSuffix, IntUnaryOperator origin) {
        /** An INSERT of the batch's own rows, in their order. */
        Insert(Block block, String tokenSuffix) {
            this(block, tokenSuffix, IntUnaryOperator.identity());
        }
    }

    private final InsertPlan plan;
    private final Metrics metrics;
    private final Map<List<String>, Shape> shapes = new HashMap<>();
    private Shape all;
    private final List<Insert> inserts = new ArrayList<>();

    BatchShaper(InsertPlan plan, Metrics metrics) {
        this.plan = plan;
        this.metrics = metrics;
    }

    /** The plan this shaper follows (its table's, as described when the shaper was made). */
    InsertPlan plan() {
        return plan;
    }

    /**
     * The INSERTs that write {@code batch}, in the order to send them, pre-sorted as the plan says
     * for a writer with no batch waiting; like {@link #shape(SealedBatch, PresortDecision)}.
     */
    List<Insert> shape(SealedBatch batch) {
        return shape(batch, plan.presortFor(false));
    }

    /**
     * The INSERTs that write {@code batch}, in the order to send them. Fills DEFAULTs into the
     * batch's block, so call it once per batch.
     *
     * @param presort whether the batch's blocks are sorted (decided by the writer for this batch)
     * @throws IllegalStateException when some rows would be sent with no column at all (every
     *     column they have is left to the server)
     */
    List<Insert> shape(SealedBatch batch, PresortDecision presort) {
        return shape(batch.block(), batch.absentRows(), batch.nowSeconds(), presort);
    }

    /**
     * The INSERTs that write {@code block} (a batch's rows, re-encoded) with the absent-field marks
     * {@code absent} and the batch's {@code now()}; like {@link #shape(SealedBatch,
     * PresortDecision)}.
     */
    List<Insert> shape(Block block, AbsentRows absent, long nowSeconds, PresortDecision presort) {
        inserts.clear();
        int rows = block.rows();
        int columns = block.columnCount();
        int omitted = 0;
        boolean anyAbsent = false;
        for (int c = 0; c < columns; c++) {
            int k = absent.count(c);
            omitted += k == rows ? 1 : 0;
            anyAbsent |= k > 0;
        }
        Shape shape;
        Block sent;
        AbsentRows marks;
        if (omitted == 0 || omitted == columns) {
            // An INSERT needs a column: when no record has any field, every column goes, with its
            // DEFAULT computed here where it can be.
            if (all == null) {
                all = new Shape(names(block, null), null, plan.defaults());
            }
            shape = all;
            sent = block;
            marks = absent;
        } else {
            shape = shapeWithout(block, absent, rows);
            sent = shape.view(block);
            marks = shape.remap(absent, rows);
            anyAbsent = marks != null;
        }
        List<Integer> left = anyAbsent ? shape.filler().fill(sent, marks, nowSeconds) : List.of();
        if (left.isEmpty()) {
            arrange(shape, sent, "", nowSeconds, IntUnaryOperator.identity(), presort);
            return inserts;
        }
        List<DefaultGroups.Group> groups = DefaultGroups.split(sent, marks, left);
        for (int g = 0; g < groups.size(); g++) {
            Block part = groups.get(g).block();
            if (part.columnCount() == 0) {
                throw new IllegalStateException(
                        "records lack every column but "
                                + groups.get(g).omitted()
                                + ", whose DEFAULTs only the server computes; an INSERT needs a"
                                + " column");
            }
            int[] fromRows = groups.get(g).rows();
            arrange(
                    shapeOf(names(part, null)),
                    part,
                    "/g" + g,
                    nowSeconds,
                    r -> fromRows[r],
                    presort);
        }
        return inserts;
    }

    /**
     * Sorts and splits {@code block} as asked, adding its INSERTs.
     *
     * @param origin each row of {@code block}'s row in the batch
     */
    private void arrange(
            Shape shape,
            Block block,
            String suffix,
            long nowSeconds,
            IntUnaryOperator origin,
            PresortDecision presort) {
        Block out = block;
        IntUnaryOperator outOrigin = origin;
        if (presort == PresortDecision.SKIP_NO_BACKLOG) {
            metrics.presortSkipped().inc();
        } else if (presort == PresortDecision.SORT) {
            Presorter sorter = shape.sorter();
            if (sorter.supported() && shape.spare == null) {
                shape.spare = Presorter.emptyLike(block);
            }
            out = sorter.sort(block, shape.spare, nowSeconds); // block itself when unsupported
            metrics.presorted(sorter.lastOutcome()).inc();
            if (sorter.lastOutcome() == Presorter.Outcome.SORTED) {
                outOrigin = sortedOrigin(sorter, block, nowSeconds, origin);
            }
        }
        if (plan.partitionSplit()) {
            PartitionSplitter splitter = shape.splitter();
            if (splitter.supported()) {
                List<Block> parts;
                try {
                    parts = splitter.split(out, nowSeconds);
                } catch (UnsupportedValueException e) {
                    parts = List.of(out); // a key value not reproduced here: one INSERT
                }
                if (parts.size() > 1) {
                    IntUnaryOperator beforeSplit = outOrigin;
                    for (int p = 0; p < parts.size(); p++) {
                        int part = p;
                        inserts.add(
                                new Insert(
                                        parts.get(p),
                                        suffix + "/p" + p,
                                        r -> beforeSplit.applyAsInt(splitter.sourceRow(part, r))));
                    }
                    return;
                }
            }
        }
        inserts.add(new Insert(out, suffix, outOrigin));
    }

    /**
     * {@code insert} (one of the last {@link #shape}'s, not sorted) in sorting-key order, before
     * the writer sends it in halves: a half's token names rows of its INSERT by position ({@code
     * /r<first>-<last>}), so the halves must be cut from the same order in every run, and a run
     * that sorted the batch cuts them from the sorted one (docs/presort.md, "auto"). The INSERT
     * itself when its block cannot be sorted (the key, or a value, is not computed here), as it
     * could not have been in any run. The sorted copy is a block of its own: this is the rare path
     * of an INSERT the server refused.
     */
    Insert sortedForHalving(Insert insert, long nowSeconds) {
        Block block = insert.block();
        Presorter sorter = shapeOf(names(block, null)).sorter();
        if (!sorter.supported()) {
            return insert;
        }
        Block out = sorter.sort(block, Presorter.emptyLike(block), nowSeconds);
        metrics.presorted(sorter.lastOutcome()).inc();
        if (sorter.lastOutcome() != Presorter.Outcome.SORTED) {
            return insert;
        }
        return new Insert(
                out,
                insert.tokenSuffix(),
                sortedOrigin(sorter, block, nowSeconds, insert.origin()));
    }

    /**
     * The origin of the rows of {@code block} once sorted: the sort's permutation, asked for again
     * only when a row's origin is needed (a row the server rejected) — it is the one the sort used,
     * since neither the block nor its sorter changes before the next {@link #shape}.
     */
    private static IntUnaryOperator sortedOrigin(
            Presorter sorter, Block block, long nowSeconds, IntUnaryOperator origin) {
        int[][] permutation = new int[1][];
        return r -> {
            if (permutation[0] == null) {
                permutation[0] = sorter.permutation(block, nowSeconds);
            }
            return origin.applyAsInt(permutation[0][r]);
        };
    }

    /** The shape of {@code block} without the columns no row has. */
    private Shape shapeWithout(Block block, AbsentRows absent, int rows) {
        int[] source = new int[block.columnCount()];
        int n = 0;
        for (int c = 0; c < block.columnCount(); c++) {
            if (absent.count(c) < rows) {
                source[n++] = c;
            }
        }
        int[] kept = Arrays.copyOf(source, n);
        List<String> names = names(block, kept);
        Shape s = shapes.get(names);
        if (s == null) {
            s = put(new Shape(names, kept, null));
        }
        return s;
    }

    private Shape shapeOf(List<String> names) {
        if (all != null && all.names.equals(names)) {
            return all;
        }
        Shape s = shapes.get(names);
        return s != null ? s : put(new Shape(names, null, null));
    }

    private Shape put(Shape s) {
        if (shapes.size() >= MAX_SHAPES) {
            shapes.clear();
        }
        shapes.put(s.names, s);
        return s;
    }

    private static List<String> names(Block block, int[] columns) {
        int n = columns == null ? block.columnCount() : columns.length;
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(block.column(columns == null ? i : columns[i]).name());
        }
        return List.copyOf(names);
    }

    /** The parts kept for one set of sent columns; built lazily, as each is needed. */
    private final class Shape {
        final List<String> names;

        /** The batch block's index of each sent column, or null when not a view of it. */
        final int[] source;

        private DefaultsPlan defaults;
        private DefaultFiller filler;
        private Presorter sorter;
        private PartitionSplitter splitter;
        private AbsentRows marks;
        Block spare;

        Shape(List<String> names, int[] source, DefaultsPlan defaults) {
            this.names = names;
            this.source = source;
            this.defaults = defaults;
        }

        /** The batch block restricted to the sent columns, sharing their data. */
        Block view(Block block) {
            List<Column> columns = new ArrayList<>(source.length);
            List<String> types = new ArrayList<>(source.length);
            for (int c : source) {
                columns.add(block.column(c));
                types.add(block.typeName(c));
            }
            return new Block(columns, types);
        }

        /**
         * The marks of the sent columns, renumbered as in {@link #view}; null when none of them
         * lacks a row. Reads only the columns with marks, so a batch whose sent columns are
         * complete costs one check per column.
         */
        AbsentRows remap(AbsentRows absent, int rows) {
            boolean any = false;
            for (int c : source) {
                any |= absent.anyAbsent(c);
            }
            if (!any) {
                return null;
            }
            if (marks == null) {
                marks = new AbsentRows(source.length);
            } else {
                marks.clear();
            }
            for (int k = 0; k < source.length; k++) {
                int c = source[k];
                if (absent.anyAbsent(c)) {
                    for (int r = 0; r < rows; r++) {
                        if (absent.isAbsent(c, r)) {
                            marks.markAbsent(k, r);
                        }
                    }
                }
            }
            return marks;
        }

        /** The DEFAULT filler for blocks of these columns. */
        DefaultFiller filler() {
            if (filler == null) {
                if (defaults == null) {
                    // The server fills a left-out column from its DEFAULT; the plan for these
                    // columns knows which of them the kept columns' DEFAULTs may read.
                    defaults = DefaultsPlan.of(plan.table(), names, plan.zone(), plan.options());
                }
                filler = defaults.newFiller();
            }
            return filler;
        }

        Presorter sorter() {
            if (sorter == null) {
                sorter = Presorter.of(plan.table(), names, plan.zone());
            }
            return sorter;
        }

        PartitionSplitter splitter() {
            if (splitter == null) {
                splitter = PartitionSplitter.of(plan.table(), names, plan.zone());
            }
            return splitter;
        }
    }
}
