package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneId;
import java.util.List;

/**
 * The columns a pipeline writes, in block order: a subset of the table's insertable columns
 * (columns absent from the input are left out, so the server fills their DEFAULT). Decoders and
 * transforms resolve names to indexes once, at start-up, then append by index.
 */
public final class TargetColumns {
    private final TableSchema table;
    private final List<TableSchema.Column> columns;
    private final ZoneId serverZone;

    /** Columns of a table whose server's time zone is not known yet: UTC until {@link #inZone}. */
    public TargetColumns(TableSchema table, List<TableSchema.Column> columns) {
        this(table, columns, ZoneId.of("UTC"));
    }

    private TargetColumns(TableSchema table, List<TableSchema.Column> columns, ZoneId zone) {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.serverZone = zone;
    }

    /**
     * The same columns on a server in {@code zone}: what {@code DateTime} without a zone, {@code
     * today()} and text dates mean in expression transforms, as in the server's DEFAULTs.
     */
    public TargetColumns inZone(ZoneId zone) {
        return new TargetColumns(table, columns, zone);
    }

    /** The time zone of the server the pipeline writes to (UTC when not known). */
    public ZoneId serverZone() {
        return serverZone;
    }

    public TableSchema table() {
        return table;
    }

    public List<TableSchema.Column> columns() {
        return columns;
    }

    public int size() {
        return columns.size();
    }

    /** The index of column {@code name}, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** An empty block with these columns and the table's exact type names. */
    public Block newBlock() {
        List<String> names = columns.stream().map(TableSchema.Column::name).toList();
        List<String> types = columns.stream().map(TableSchema.Column::typeName).toList();
        return Block.forHeader(names, types);
    }

    /** The columns of a block made by {@link #newBlock()}, by index. */
    public static Column column(Block block, int index) {
        return block.column(index);
    }
}
