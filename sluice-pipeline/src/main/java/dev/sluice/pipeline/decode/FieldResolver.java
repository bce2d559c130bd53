package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.schema.TableSchema;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Maps input field names (CSV/TSV header names, {@code columns} entries, JSON keys) to the columns
 * a decoder feeds, applying renames and drops, and explains the fields that map nowhere.
 */
public final class FieldResolver {
    private final TableSchema table;
    private final Map<String, ColumnSlot> byColumn = new HashMap<>();
    private final FieldRules rules;
    private final Set<String> produced;
    private final boolean ignoreUnknown;

    FieldResolver(
            TableSchema table,
            Iterable<ColumnSlot> fed,
            FieldRules rules,
            Set<String> produced,
            boolean ignoreUnknown) {
        this.table = table;
        for (ColumnSlot s : fed) {
            byColumn.put(s.name, s);
        }
        this.rules = rules;
        this.produced = produced;
        this.ignoreUnknown = ignoreUnknown;
    }

    public FieldRules rules() {
        return rules;
    }

    public boolean ignoreUnknown() {
        return ignoreUnknown;
    }

    /** The column the field feeds, or null when it is dropped or (with ignore-unknown) unknown. */
    public ColumnSlot resolve(String field) throws RecordException {
        if (rules.drops().contains(field)) {
            return null;
        }
        ColumnSlot s = byColumn.get(rules.columnFor(field));
        if (s == null && !ignoreUnknown) {
            throw RecordException.ofField(field, whyUnknown(field));
        }
        return s;
    }

    /** Why {@code field} has no column, for the error message. */
    public String whyUnknown(String field) {
        String column = rules.columnFor(field);
        String named = column.equals(field) ? "" : " (the rename target of this field)";
        TableSchema.Column c = table.column(column);
        String why;
        if (c == null) {
            why = "table " + table.qualifiedName() + " has no column " + column + named;
        } else if (!c.insertable()) {
            why = "column " + column + " is " + c.defaultKind() + " and cannot be inserted";
        } else if (produced.contains(column)) {
            why = "column " + column + " is computed by a transform";
        } else {
            why = "column " + column + " is not among the columns this pipeline writes";
        }
        return why + " (ignore_unknown skips such fields)";
    }
}
