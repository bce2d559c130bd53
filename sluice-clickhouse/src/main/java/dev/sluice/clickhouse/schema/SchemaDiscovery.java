package dev.sluice.clickhouse.schema;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.clickhouse.types.UnsupportedTypeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a table's schema from {@code system.columns} and {@code system.tables}. */
public final class SchemaDiscovery {
    private SchemaDiscovery() {}

    /**
     * The schema of {@code table} ({@code db.table}, or {@code table} in the connection's
     * database).
     *
     * @throws ClickHouseException when the table does not exist
     */
    public static TableSchema describe(ClickHouseClient connection, String table) {
        String database = connection.config().database();
        String name = table;
        int dot = table.indexOf('.');
        if (dot > 0) {
            database = table.substring(0, dot);
            name = table.substring(dot + 1);
        }
        database = unquote(database);
        name = unquote(name);
        List<List<Object>> tables =
                connection.queryRows(
                        "SELECT engine, sorting_key, partition_key FROM system.tables WHERE"
                                + " database = "
                                + literal(database)
                                + " AND name = "
                                + literal(name));
        if (tables.isEmpty()) {
            throw new ClickHouseException(
                    "table " + database + "." + name + " does not exist on " + connection.server());
        }
        List<TableSchema.Column> columns = new ArrayList<>();
        connection.query(
                "SELECT name, type, default_kind, default_expression FROM system.columns WHERE"
                        + " database = "
                        + literal(database)
                        + " AND table = "
                        + literal(name),
                Map.of(),
                b -> {
                    for (int r = 0; r < b.rows(); r++) {
                        String col = b.column(0).getString(r);
                        String typeName = b.column(1).getString(r);
                        ClickHouseType type;
                        try {
                            type = TypeParser.parse(typeName);
                        } catch (UnsupportedTypeException e) {
                            type = null; // reported when something tries to write it
                        }
                        columns.add(
                                new TableSchema.Column(
                                        col,
                                        typeName,
                                        type,
                                        TableSchema.DefaultKind.parse(b.column(2).getString(r)),
                                        b.column(3).getString(r)));
                    }
                });
        List<Object> t = tables.get(0);
        return new TableSchema(
                database, name, columns, (String) t.get(0), (String) t.get(1), (String) t.get(2));
    }

    private static String unquote(String identifier) {
        String s = identifier.strip();
        if (s.length() >= 2 && s.charAt(0) == '`' && s.charAt(s.length() - 1) == '`') {
            return s.substring(1, s.length() - 1).replace("\\`", "`");
        }
        return s;
    }

    /** A SQL string literal. */
    public static String literal(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
