package dev.sluice.pipeline.writer;

import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a table's columns changed between two descriptions (an {@code ALTER TABLE} while data flows),
 * in words; and the cheap look at them that notices it: {@code system.columns} of the table, read
 * every {@code schema_check_interval} and compared with what the writer last saw.
 */
final class TableChanges {
    private TableChanges() {}

    /**
     * What changed from {@code before} to {@code after}, one phrase per column ({@code added c
     * String}, {@code dropped d}, {@code c UInt32 → UInt64}, {@code c DEFAULT 1 → DEFAULT 2});
     * empty when the columns are the same.
     */
    static List<String> between(TableSchema before, TableSchema after) {
        List<String> out = new ArrayList<>();
        for (TableSchema.Column b : before.columns()) {
            TableSchema.Column a = after.column(b.name());
            if (a == null) {
                out.add("dropped " + b.name());
            } else if (!a.typeName().equals(b.typeName())) {
                out.add(b.name() + " " + b.typeName() + " → " + a.typeName());
            } else if (a.defaultKind() != b.defaultKind()
                    || !Objects.equals(a.defaultExpression(), b.defaultExpression())) {
                out.add(b.name() + " " + defaultOf(b) + " → " + defaultOf(a));
            }
        }
        for (TableSchema.Column a : after.columns()) {
            if (before.column(a.name()) == null) {
                out.add("added " + a.name() + " " + a.typeName());
            }
        }
        if (out.isEmpty() && !names(before).equals(names(after))) {
            out.add("columns reordered");
        }
        return out;
    }

    private static List<String> names(TableSchema t) {
        return t.columns().stream().map(TableSchema.Column::name).toList();
    }

    private static String defaultOf(TableSchema.Column c) {
        return c.defaultKind() == TableSchema.DefaultKind.NONE
                ? "no default"
                : c.defaultKind() + " " + c.defaultExpression();
    }

    /**
     * The query of the periodic look at {@code table}'s columns ({@code [db.]table}, a database
     * left out meaning the connection's).
     */
    static String columnsQuery(String table) {
        String database = null;
        String name = table;
        int dot = dotOutsideQuotes(table);
        if (dot > 0) {
            database = unquote(table.substring(0, dot));
            name = table.substring(dot + 1);
        }
        name = unquote(name);
        return "SELECT name, type, default_kind, default_expression FROM system.columns WHERE"
                + " database = "
                + (database == null ? "currentDatabase()" : SchemaDiscovery.literal(database))
                + " AND table = "
                + SchemaDiscovery.literal(name);
    }

    /**
     * True when the rows of {@link #columnsQuery} describe {@code schema}'s columns: the same
     * names, types and defaults, in the same order.
     */
    static boolean matches(List<List<Object>> rows, TableSchema schema) {
        List<TableSchema.Column> columns = schema.columns();
        if (rows.size() != columns.size()) {
            return false;
        }
        for (int i = 0; i < rows.size(); i++) {
            List<Object> r = rows.get(i);
            TableSchema.Column c = columns.get(i);
            if (!c.name().equals(text(r, 0))
                    || !c.typeName().equals(text(r, 1))
                    || c.defaultKind() != TableSchema.DefaultKind.parse(text(r, 2))
                    || !Objects.equals(nullToEmpty(c.defaultExpression()), text(r, 3))) {
                return false;
            }
        }
        return true;
    }

    private static String text(List<Object> row, int i) {
        Object v = i < row.size() ? row.get(i) : null;
        return v == null ? "" : v.toString();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static int dotOutsideQuotes(String s) {
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '`') {
                quoted = !quoted;
            } else if (ch == '.' && !quoted) {
                return i;
            }
        }
        return -1;
    }

    private static String unquote(String identifier) {
        String s = identifier.strip();
        if (s.length() >= 2 && s.charAt(0) == '`' && s.charAt(s.length() - 1) == '`') {
            return s.substring(1, s.length() - 1).replace("\\`", "`").replace("\\\\", "\\");
        }
        return s;
    }
}
