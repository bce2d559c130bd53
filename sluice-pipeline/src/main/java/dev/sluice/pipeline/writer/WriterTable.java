package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertTarget;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One table of a {@link ClickHouseWriter}: its layout as last described, the batches gathered for
 * it, and what notices when it is altered while data flows — a refusal of the server ({@link
 * #refresh}), or the writer's periodic look at its columns ({@link #check}). Either describes the
 * table again on every shard; a table found changed gets a new layout as a whole (new {@link Rows},
 * gathered batches and the pipeline's decoders follow it; batches staged before are re-encoded by
 * the writer threads). Thread-safe: re-descriptions run one at a time.
 */
final class WriterTable implements InsertTarget {
    /** What the table's changes are reported to: the writer's metrics and its listener. */
    interface Changes {
        /** The table changed; {@code byCheck}: noticed by the periodic look, else a refusal. */
        void changed(WriterTable table, List<String> what, boolean byCheck);
    }

    private final ClickHouseWriter writer;
    private final String name;
    private final SinkSpec sink;
    private final Connections connections;
    private final Function<TableSchema, TargetColumns> chooser;
    private final Changes changes;
    private final Coalescer coalescer;
    private volatile TableLayout current;
    private volatile InsertTarget.Layout layout;

    /** What the periodic look last found in {@code system.columns} (guarded by this). */
    private List<List<Object>> lastLook;

    /**
     * @param sink the writer's sink with {@code table} = {@code name}
     * @param gather seals the table's gathered batches into the writer's batches
     */
    WriterTable(
            ClickHouseWriter writer,
            TableLayout initial,
            Connections connections,
            Function<TableSchema, TargetColumns> chooser,
            Changes changes,
            Function<WriterTable, Coalescer> gather) {
        this.writer = writer;
        this.sink = initial.sink();
        this.name = sink.table();
        this.connections = connections;
        this.chooser = chooser;
        this.changes = changes;
        install(initial, 0);
        this.coalescer = gather.apply(this);
    }

    private void install(TableLayout l, long version) {
        current = l;
        layout = new InsertTarget.Layout(version, l.columns(), l.plan(), l.outcomes());
    }

    ClickHouseWriter writer() {
        return writer;
    }

    /** The table's layout as last described. */
    TableLayout current() {
        return current;
    }

    Coalescer coalescer() {
        return coalescer;
    }

    @Override
    public String table() {
        return name;
    }

    @Override
    public InsertTarget.Layout layout() {
        return layout;
    }

    @Override
    public boolean refresh(InsertTarget.Layout seen, RuntimeException refusal) {
        synchronized (this) {
            if (seen != layout) {
                return true; // described again since (by another writer thread, or the check)
            }
            return describeAgain(false);
        }
    }

    /**
     * The periodic look: reads the table's columns on shard 0 and, when they are not what the
     * writer last saw, describes the table again. Failures are left for the next look (an INSERT
     * the table refuses is noticed anyway).
     */
    void check() {
        List<List<Object>> rows = null;
        ShardSpec shard = sink.shards().get(0);
        for (String url : shard.replicas()) {
            try {
                rows = connections.queryRows(url, TableChanges.columnsQuery(name));
                break;
            } catch (UnsupportedOperationException e) {
                return; // connections that run no queries: only refusals notice a change
            } catch (RuntimeException e) {
                // the next replica, or the next look
            }
        }
        if (rows == null) {
            return;
        }
        synchronized (this) {
            if (rows.equals(lastLook)) {
                return;
            }
            if (!TableChanges.matches(rows, current.schema())) {
                try {
                    describeAgain(true);
                } catch (TableChangeException e) {
                    return; // looked at again next time; an INSERT it refuses stops its batch
                }
            }
            lastLook = rows;
        }
    }

    /** Describes the table on every shard; true when it changed (then installed). */
    private boolean describeAgain(boolean byCheck) {
        TableLayout fresh;
        try {
            fresh = TableLayout.discover(sink, connections, chooser);
        } catch (TableLayout.ShardsDisagree e) {
            throw new TableChangeException(
                    "the table changed, and " + e.getMessage() + " (yet: an ALTER in progress?)",
                    true,
                    e);
        } catch (WriterException e) {
            boolean unreachable = causedBy(e, ConnectionException.class);
            throw new TableChangeException(
                    "the table changed, and describing it again failed: " + e.getMessage(),
                    unreachable,
                    e);
        }
        TableLayout old = current;
        List<String> what = TableChanges.between(old.schema(), fresh.schema());
        if (what.isEmpty() && sameColumns(old.columns(), fresh.columns())) {
            return false;
        }
        String key = shardKeyProblem(sink.shardBy(), old.schema(), fresh.schema());
        if (key != null) {
            throw new TableChangeException(key, false, null);
        }
        install(fresh, layout.version() + 1);
        changes.changed(this, what, byCheck);
        return true;
    }

    /**
     * The sharding key is compiled once, for the types its columns had: a key column whose type
     * changed, or that is gone, cannot be followed without opening the writer again.
     */
    static String shardKeyProblem(String expression, TableSchema before, TableSchema after) {
        if (expression == null) {
            return null;
        }
        for (TableSchema.Column b : before.columns()) {
            if (!Pattern.compile("\\b" + Pattern.quote(b.name()) + "\\b")
                    .matcher(expression)
                    .find()) {
                continue;
            }
            TableSchema.Column a = after.column(b.name());
            if (a == null || !a.typeName().equals(b.typeName())) {
                return "the table changed column "
                        + b.name()
                        + " of its sharding key (shard_by: "
                        + expression
                        + "): "
                        + (a == null ? "dropped" : b.typeName() + " → " + a.typeName())
                        + "; start again to route rows by the key as it is now";
            }
        }
        return null;
    }

    private static boolean sameColumns(TargetColumns a, TargetColumns b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            TableSchema.Column x = a.columns().get(i);
            TableSchema.Column y = b.columns().get(i);
            if (!x.name().equals(y.name()) || !x.typeName().equals(y.typeName())) {
                return false;
            }
        }
        return true;
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** Rows in the table's layout as last described. */
    Rows newRows() {
        return new Rows(this, current);
    }
}
