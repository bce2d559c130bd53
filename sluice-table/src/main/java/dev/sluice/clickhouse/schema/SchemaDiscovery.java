package dev.sluice.clickhouse.schema;

import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.expr.Expr;
import dev.sluice.clickhouse.expr.ExprParseException;
import dev.sluice.clickhouse.expr.ExprParser;
import dev.sluice.clickhouse.protocol.ColumnDescription;
import dev.sluice.clickhouse.protocol.TableColumns;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.clickhouse.types.UnsupportedTypeException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a table's schema: columns with types and defaults from the TableColumns packet on the
 * native transport (falling back to {@code system.columns}, which HTTP always uses), engine, keys
 * and engine clause from {@code system.tables}, deduplication from the engine and the MergeTree
 * settings.
 *
 * <p>Servers whose {@code system.tables} has no {@code sorting_key} column get the keys parsed from
 * the engine clause, in either syntax: {@code ORDER BY}/{@code PARTITION BY} clauses, or the old
 * {@code MergeTree(date, [sampling,] (key), granularity)} arguments (partitioned by month of the
 * date column).
 */
public final class SchemaDiscovery {
    private static final Pattern OLD_ENGINE_ARGS = Pattern.compile("^[A-Za-z]*MergeTree\\s*\\(");

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
        Set<String> have = systemTablesColumns(connection);
        List<String> wanted = new ArrayList<>(List.of("engine"));
        for (String c :
                List.of("engine_full", "create_table_query", "sorting_key", "partition_key")) {
            if (have.contains(c)) {
                wanted.add(c);
            }
        }
        List<List<Object>> tables =
                connection.queryRows(
                        "SELECT "
                                + String.join(", ", wanted)
                                + " FROM system.tables WHERE database = "
                                + literal(database)
                                + " AND name = "
                                + literal(name));
        if (tables.isEmpty()) {
            throw new ClickHouseException(
                    "table " + database + "." + name + " does not exist on " + connection.server());
        }
        List<Object> row = tables.get(0);
        String engine = field(row, wanted, "engine");
        String engineFull = field(row, wanted, "engine_full");
        if (engineFull.isEmpty()) {
            engineFull = engineClause(field(row, wanted, "create_table_query"));
        }
        String sortingKey;
        String partitionKey;
        if (have.contains("sorting_key")) {
            sortingKey = field(row, wanted, "sorting_key");
            partitionKey = field(row, wanted, "partition_key");
        } else {
            String[] keys = keysFromEngineClause(engineFull);
            sortingKey = keys[0];
            partitionKey = keys[1];
        }
        List<TableSchema.Column> columns = null;
        if (connection instanceof NativeConnection nc) {
            columns =
                    columnsFromInsertHeader(
                            nc,
                            ExprParser.quoteIdentifier(database)
                                    + "."
                                    + ExprParser.quoteIdentifier(name));
        }
        if (columns == null) {
            columns = columnsFromSystemTable(connection, database, name);
        }
        return new TableSchema(
                database,
                name,
                columns,
                engine,
                sortingKey,
                partitionKey,
                engineFull,
                deduplication(connection, engine, engineFull));
    }

    private static Set<String> systemTablesColumns(ClickHouseClient connection) {
        Set<String> names = new HashSet<>();
        for (List<Object> r :
                connection.queryRows(
                        "SELECT name FROM system.columns WHERE database = 'system' AND table ="
                                + " 'tables'")) {
            names.add((String) r.get(0));
        }
        return names;
    }

    private static String field(List<Object> row, List<String> names, String name) {
        int i = names.indexOf(name);
        return i < 0 || row.get(i) == null ? "" : row.get(i).toString();
    }

    /** The text after {@code ENGINE =} in a CREATE statement, or "". */
    static String engineClause(String createTableQuery) {
        Matcher m = Pattern.compile("\\bENGINE\\s*=\\s*").matcher(createTableQuery);
        return m.find() ? createTableQuery.substring(m.end()).trim() : "";
    }

    /**
     * {sorting key, partition key} as {@code system.tables} would print them, parsed from an engine
     * clause; "" for what it does not have.
     */
    static String[] keysFromEngineClause(String engineFull) {
        try {
            Expr order = ExprParser.clause(engineFull, "ORDER", "BY");
            if (order != null) {
                Expr partition = ExprParser.clause(engineFull, "PARTITION", "BY");
                return new String[] {keyText(order), partition == null ? "" : keyText(partition)};
            }
            if (!OLD_ENGINE_ARGS.matcher(engineFull).find()) {
                return new String[] {"", ""};
            }
            List<Expr> args = new ArrayList<>(ExprParser.engineArguments(engineFull));
            if (engineFull.startsWith("Replicated") && args.size() >= 2) {
                args = args.subList(2, args.size()); // ZooKeeper path and replica name
            }
            // (date, [sampling,] key, granularity, [engine-specific...])
            int key = -1;
            for (int i = 1; i < args.size(); i++) {
                if (args.get(i) instanceof Expr.Literal) {
                    key = i - 1; // the granularity follows the key
                    break;
                }
            }
            if (key < 1) {
                return new String[] {"", ""};
            }
            return new String[] {keyText(args.get(key)), "toYYYYMM(" + args.get(0) + ")"};
        } catch (ExprParseException e) {
            return new String[] {"", ""};
        }
    }

    /** A key expression as {@code system.tables} prints it: a tuple's elements, comma-separated. */
    private static String keyText(Expr key) {
        if (key instanceof Expr.Call c && c.function().equals("tuple")) {
            List<String> parts = new ArrayList<>();
            for (Expr e : c.args()) {
                parts.add(e.toString());
            }
            return String.join(", ", parts);
        }
        return key.toString();
    }

    /**
     * The columns as the server announces them before an INSERT's data (the TableColumns packet),
     * or null when it does not (old revision, a table that takes no INSERT, no permission). The
     * INSERT is ended with no rows, so nothing is written.
     */
    public static List<TableSchema.Column> columnsFromInsertHeader(
            NativeConnection connection, String qualifiedTable) {
        // 18.x sends the packet on request; 19.x and later by default, under a new name.
        Map<String, String> settings =
                connection.server().atLeast(19, 1)
                        ? Map.of("input_format_defaults_for_omitted_fields", "1")
                        : Map.of("insert_sample_with_metadata", "1");
        TableColumns described;
        try (Insert insert = connection.insert(qualifiedTable, List.of(), settings)) {
            described = insert.tableColumns();
            insert.finish();
        } catch (ServerException e) {
            return null;
        }
        if (described == null) {
            return null;
        }
        List<TableSchema.Column> columns = new ArrayList<>();
        for (ColumnDescription d : described.columns()) {
            columns.add(
                    new TableSchema.Column(
                            d.name(),
                            d.typeName(),
                            parseType(d.typeName()),
                            TableSchema.DefaultKind.valueOf(d.defaultKind().name()),
                            d.defaultExpression()));
        }
        return columns;
    }

    private static List<TableSchema.Column> columnsFromSystemTable(
            ClickHouseClient connection, String database, String name) {
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
                        String typeName = b.column(1).getString(r);
                        columns.add(
                                new TableSchema.Column(
                                        b.column(0).getString(r),
                                        typeName,
                                        parseType(typeName),
                                        TableSchema.DefaultKind.parse(b.column(2).getString(r)),
                                        b.column(3).getString(r)));
                    }
                });
        return columns;
    }

    private static ClickHouseType parseType(String typeName) {
        try {
            return TypeParser.parse(typeName);
        } catch (UnsupportedTypeException e) {
            return null; // reported when something tries to write it
        }
    }

    /**
     * Replicated* tables deduplicate within {@code replicated_deduplication_window} blocks; other
     * MergeTree tables when {@code non_replicated_deduplication_window} (a table setting, else the
     * server's default) is above 0. Servers without that setting (18.16) do not deduplicate them.
     */
    private static Deduplication deduplication(
            ClickHouseClient connection, String engine, String engineFull) {
        boolean replicated = engine.startsWith("Replicated");
        if (!replicated && !engine.endsWith("MergeTree")) {
            return Deduplication.NONE;
        }
        String setting =
                replicated
                        ? "replicated_deduplication_window"
                        : "non_replicated_deduplication_window";
        long window = tableSetting(engineFull, setting);
        if (window < 0) {
            List<List<Object>> rows =
                    connection.queryRows(
                            "SELECT value FROM system.merge_tree_settings WHERE name = "
                                    + literal(setting));
            window = rows.isEmpty() ? -1 : Long.parseLong(rows.get(0).get(0).toString().trim());
        }
        if (replicated) {
            return window == 0
                    ? Deduplication.NONE
                    : new Deduplication(Deduplication.Kind.REPLICATED, window);
        }
        // -1 (the server has no such setting) stays -1: the statement says which it is.
        return window > 0
                ? new Deduplication(Deduplication.Kind.NON_REPLICATED_WINDOW, window)
                : new Deduplication(Deduplication.Kind.NONE, window);
    }

    /** A numeric setting from the engine clause's SETTINGS, or -1. */
    static long tableSetting(String engineFull, String name) {
        Matcher m = Pattern.compile("\\b" + name + "\\s*=\\s*(\\d+)").matcher(engineFull);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
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
