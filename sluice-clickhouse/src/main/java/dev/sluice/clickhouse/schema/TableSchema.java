package dev.sluice.clickhouse.schema;

import dev.sluice.clickhouse.types.ClickHouseType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the server says about a table: its columns (in table order) with types and default kinds,
 * its engine and its keys.
 *
 * @param sortingKey the ORDER BY expression ("" when none), as {@code system.tables} prints it
 */
public record TableSchema(
        String database,
        String table,
        List<Column> columns,
        String engine,
        String sortingKey,
        String partitionKey) {

    public TableSchema {
        columns = List.copyOf(columns);
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
}
