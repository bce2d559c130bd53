package dev.sluice.clickhouse.protocol;

import java.util.List;
import java.util.Objects;

/**
 * One column of a {@link TableColumns} description.
 *
 * @param typeName as the server names it, e.g. {@code Nullable(String)}, {@code Enum8('a' = 1)}
 * @param defaultExpression the SQL of the DEFAULT/MATERIALIZED/ALIAS/EPHEMERAL expression; empty
 *     for {@link DefaultKind#NONE}
 * @param comment the column comment as plain text; empty for none
 * @param otherClauses further clauses as SQL, in server order: {@code CODEC(...)}, {@code
 *     STATISTICS(...)}, {@code TTL ...}, {@code SETTINGS (...)}
 */
public record ColumnDescription(
        String name,
        String typeName,
        DefaultKind defaultKind,
        String defaultExpression,
        String comment,
        List<String> otherClauses) {

    /** How a column gets a value the INSERT does not supply. */
    public enum DefaultKind {
        /** The type's default value (0, empty string, ...). */
        NONE,
        /** The expression, when the INSERT omits the column. */
        DEFAULT,
        /** Always computed; an INSERT cannot supply it. */
        MATERIALIZED,
        /** Not stored; an INSERT cannot supply it. */
        ALIAS,
        /** Not stored; may be supplied to compute other defaults (ClickHouse 22.x and up). */
        EPHEMERAL
    }

    public ColumnDescription {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeName, "typeName");
        Objects.requireNonNull(defaultKind, "defaultKind");
        Objects.requireNonNull(defaultExpression, "defaultExpression");
        Objects.requireNonNull(comment, "comment");
        otherClauses = List.copyOf(otherClauses);
    }

    /** A column with no comment and no other clauses. */
    public ColumnDescription(
            String name, String typeName, DefaultKind defaultKind, String defaultExpression) {
        this(name, typeName, defaultKind, defaultExpression, "", List.of());
    }

    /** Whether an INSERT may send this column (MATERIALIZED and ALIAS columns are refused). */
    public boolean insertable() {
        return defaultKind != DefaultKind.MATERIALIZED && defaultKind != DefaultKind.ALIAS;
    }
}
