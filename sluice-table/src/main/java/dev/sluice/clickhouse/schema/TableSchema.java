package dev.sluice.clickhouse.schema;

import dev.sluice.clickhouse.expr.Expr;
import dev.sluice.clickhouse.expr.ExprParser;
import dev.sluice.clickhouse.types.ClickHouseType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the server says about a table: its columns (in table order) with types and default kinds,
 * its engine and its keys. Both transports describe a table with it ({@link SchemaDiscovery}).
 *
 * @param sortingKey the ORDER BY expression ("" when none), as {@code system.tables} prints it:
 *     {@code a, toDate(ts)}
 * @param partitionKey the PARTITION BY expression ("" when none)
 * @param engineFull the engine clause ({@code MergeTree PARTITION BY ... ORDER BY ... SETTINGS
 *     ...}), "" when not known
 * @param deduplication whether the server drops a repeated INSERT block
 */
public record TableSchema(
        String database,
        String table,
        List<Column> columns,
        String engine,
        String sortingKey,
        String partitionKey,
        String engineFull,
        Deduplication deduplication) {

    public TableSchema {
        columns = List.copyOf(columns);
    }

    /** A schema known without its engine clause; deduplication follows from the engine name. */
    public TableSchema(
            String database,
            String table,
            List<Column> columns,
            String engine,
            String sortingKey,
            String partitionKey) {
        this(
                database,
                table,
                columns,
                engine,
                sortingKey,
                partitionKey,
                "",
                Deduplication.fromEngine(engine));
    }

    /** How a column gets its value when an INSERT does not provide it. */
    public enum DefaultKind {
        NONE,
        DEFAULT,
        MATERIALIZED,
        ALIAS,
        EPHEMERAL;

        public static DefaultKind parse(String s) {
            return s == null || s.isEmpty() ? NONE : valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    /** One column of the table. */
    public record Column(
            String name,
            String typeName,
            ClickHouseType type,
            DefaultKind defaultKind,
            String defaultExpression) {

        /** MATERIALIZED and ALIAS columns are computed by the server and never sent. */
        public boolean insertable() {
            return defaultKind == DefaultKind.NONE
                    || defaultKind == DefaultKind.DEFAULT
                    || defaultKind == DefaultKind.EPHEMERAL;
        }

        /** The server fills it when an INSERT omits it (DEFAULT, or the type's own default). */
        public boolean hasDefault() {
            return defaultKind != DefaultKind.NONE;
        }
    }

    public String qualifiedName() {
        return database + "." + table;
    }

    /** The column called {@code name}, or null. */
    public Column column(String name) {
        for (Column c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    public List<Column> insertableColumns() {
        List<Column> out = new ArrayList<>();
        for (Column c : columns) {
            if (c.insertable()) {
                out.add(c);
            }
        }
        return out;
    }

    /** True for the Replicated* engines, which deduplicate inserted blocks by default. */
    public boolean replicated() {
        return engine.startsWith("Replicated");
    }

    /**
     * The sorting key's parts, parsed: {@code a, toDate(ts)} gives two; a tuple is flattened.
     *
     * @throws dev.sluice.clickhouse.expr.ExprParseException when the key is not in the parser's
     *     subset
     */
    public List<Expr> sortingKeyExpressions() {
        return keyParts(sortingKey);
    }

    /** The partition key's parts, parsed like {@link #sortingKeyExpressions()}. */
    public List<Expr> partitionKeyExpressions() {
        return keyParts(partitionKey);
    }

    private static List<Expr> keyParts(String key) {
        List<Expr> parts = ExprParser.parseList(key == null ? "" : key);
        if (parts.size() == 1
                && parts.get(0) instanceof Expr.Call c
                && c.function().equals("tuple")) {
            return c.args();
        }
        return parts;
    }
}
