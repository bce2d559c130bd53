package dev.sluice.pipeline.sink;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.defaults.AbsentRows;
import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.Expr;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.UnsupportedValueException;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.Converters;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Rows staged for a table as it was, re-encoded for the table as it is now — after an {@code ALTER
 * TABLE} while they were in flight (docs/writer.md, "Tables that change"):
 *
 * <ul>
 *   <li>a column the table no longer has (dropped, or now MATERIALIZED or ALIAS) is left out;
 *   <li>a column the table has gained is absent from every staged row: the rows were read before it
 *       existed, so it gets its DEFAULT (the writer leaves it to the server);
 *   <li>a column whose type changed is converted row by row as the server's {@code CAST} converts
 *       it — the conversion an {@code ALTER ... MODIFY COLUMN} applies to the rows already in the
 *       table, evaluated by the expression engine ({@code dev.sluice.clickhouse.expr}); for types
 *       the engine does not produce (Decimal, UUID, Array, ...) the value goes through the column's
 *       converter, as a decoder writes a field of that value. A row with a value that cannot be
 *       converted — text that is no number, a NULL for a column that is no longer Nullable — is
 *       refused with the reason, never written as NULL or a default; the writer hands it to its
 *       rejected-row handler (the pipeline's {@code errors.policy}).
 * </ul>
 *
 * Rows keep their order; {@link Result#kept()} maps each row of the new block to its row in the old
 * one. Absent-field marks travel with their rows (a placeholder stays a placeholder, of the new
 * type).
 */
final class Reencoding {
    private static final int SHOWN_CHARS = 80;

    private Reencoding() {}

    /** A row that could not be re-encoded, and why. */
    record Refused(int row, String reason) {}

    /**
     * The re-encoded rows.
     *
     * @param absent the marks of the new block's columns (for {@link #toColumns}); null for {@link
     *     #forTable}
     * @param kept each new row's row in the old block
     * @param refused the old block's rows that could not be converted, in row order
     */
    record Result(Block block, AbsentRows absent, int[] kept, List<Refused> refused) {}

    /**
     * {@code block} (with its absent-field marks) in exactly {@code target}'s columns and order:
     * what a batch staged under an older layout becomes under the current one. Null when the block
     * already has those columns with those types.
     */
    static Result toColumns(
            Block block, AbsentRows absent, List<TableSchema.Column> target, ZoneId zone) {
        if (sameColumns(block, target)) {
            return null;
        }
        return reencode(block, absent, target, zone);
    }

    /**
     * The block of one INSERT (its columns a subset of the table's, DEFAULTs already filled) as the
     * table {@code table} takes it now: columns it no longer takes are left out, changed types
     * converted; nothing is added (the server fills what the INSERT omits). Null when the table
     * takes the block as it is.
     */
    static Result forTable(Block block, TableSchema table, ZoneId zone) {
        List<TableSchema.Column> target = new ArrayList<>();
        for (int c = 0; c < block.columnCount(); c++) {
            TableSchema.Column now = table.column(block.column(c).name());
            if (now != null && now.insertable()) {
                target.add(now);
            }
        }
        if (sameColumns(block, target)) {
            return null;
        }
        return reencode(block, null, target, zone);
    }

    /** True when {@code block} has exactly {@code target}'s names and type names, in order. */
    static boolean sameColumns(Block block, List<TableSchema.Column> target) {
        if (block.columnCount() != target.size()) {
            return false;
        }
        for (int c = 0; c < target.size(); c++) {
            if (!block.column(c).name().equals(target.get(c).name())
                    || !block.typeName(c).equals(target.get(c).typeName())) {
                return false;
            }
        }
        return true;
    }

    private static Result reencode(
            Block block, AbsentRows absent, List<TableSchema.Column> target, ZoneId zone) {
        int rows = block.rows();
        int n = target.size();
        int[] from = new int[n]; // each target column's column in the old block, or -1
        List<String> names = new ArrayList<>(n);
        List<String> types = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            TableSchema.Column t = target.get(c);
            from[c] = block.indexOf(t.name());
            names.add(t.name());
            types.add(t.typeName());
        }
        Block out = Block.forHeader(names, types);
        // Convert the changed columns first: a row any of them refuses is left out of all.
        TreeMap<Integer, String> refused = new TreeMap<>();
        Column[] converted = new Column[n];
        for (int c = 0; c < n; c++) {
            int f = from[c];
            if (f >= 0 && !block.typeName(f).equals(types.get(c))) {
                converted[c] = convert(block, f, absent, target.get(c), zone, refused);
            }
        }
        int[] kept = new int[rows - refused.size()];
        int k = 0;
        for (int r = 0; r < rows; r++) {
            if (!refused.containsKey(r)) {
                kept[k++] = r;
            }
        }
        AbsentRows marks = absent == null ? null : new AbsentRows(n);
        for (int c = 0; c < n; c++) {
            int f = from[c];
            Column to = out.column(c);
            if (f < 0) {
                // Gained since the rows were staged: absent from each of them.
                for (int i = 0; i < kept.length; i++) {
                    to.appendDefault();
                    if (marks != null) {
                        marks.markAbsent(c, i);
                    }
                }
                continue;
            }
            if (converted[c] != null) {
                to.appendRowsFrom(converted[c], kept, 0, kept.length);
            } else {
                to.appendRowsFrom(block.column(f), kept, 0, kept.length);
            }
            if (marks != null && absent.anyAbsent(f)) {
                for (int i = 0; i < kept.length; i++) {
                    if (absent.isAbsent(f, kept[i])) {
                        marks.markAbsent(c, i);
                    }
                }
            }
        }
        List<Refused> list = new ArrayList<>(refused.size());
        refused.forEach((row, reason) -> list.add(new Refused(row, reason)));
        return new Result(out, marks, kept, List.copyOf(list));
    }

    /**
     * Column {@code f} of {@code block}, every row, converted to {@code now}'s type in a column of
     * its own (a placeholder where a row's field is absent); rows that cannot be converted get a
     * placeholder too and their reason in {@code refused} (the first reason of a row counts).
     */
    private static Column convert(
            Block block,
            int f,
            AbsentRows absent,
            TableSchema.Column now,
            ZoneId zone,
            TreeMap<Integer, String> refused) {
        Column old = block.column(f);
        String oldType = block.typeName(f);
        Column to = Block.forHeader(List.of(now.name()), List.of(now.typeName())).column(0);
        int rows = block.rows();
        CompiledExpression cast = castOf(old, now, zone);
        if (cast != null && castAll(block, f, absent, cast, to, refused)) {
            return to;
        }
        // Row by row, naming each row that cannot be converted.
        Converter converter = cast == null ? Converters.forType(now.type()) : null;
        int[] one = new int[1];
        for (int r = 0; r < rows; r++) {
            if (refused.containsKey(r) || (absent != null && absent.isAbsent(f, r))) {
                to.appendDefault();
                continue;
            }
            int at = to.rows();
            try {
                if (cast != null) {
                    one[0] = r;
                    ValueVector v = cast.evaluate(block, one, 1, 0);
                    CompiledExpression.append(v, 0, to);
                } else {
                    appendObject(converter, to, old.getObject(r));
                }
            } catch (UnsupportedValueException
                    | ConversionException
                    | IllegalArgumentException
                    | ArithmeticException e) {
                if (to.rows() > at) {
                    to.truncate(at);
                }
                to.appendDefault();
                refused.put(
                        r,
                        "column "
                                + now.name()
                                + " changed from "
                                + oldType
                                + " to "
                                + now.typeName()
                                + " while the row was in flight, and its value "
                                + show(old, r)
                                + " cannot be converted: "
                                + e.getMessage());
            }
        }
        return to;
    }

    /**
     * Converts every row at once (the usual case: every value converts); false, with {@code to}
     * emptied, when some value does not — the caller then goes row by row.
     */
    private static boolean castAll(
            Block block,
            int f,
            AbsentRows absent,
            CompiledExpression cast,
            Column to,
            TreeMap<Integer, String> refused) {
        int rows = block.rows();
        int[] present = new int[rows];
        int n = 0;
        for (int r = 0; r < rows; r++) {
            if (!refused.containsKey(r) && (absent == null || !absent.isAbsent(f, r))) {
                present[n++] = r;
            }
        }
        try {
            ValueVector v = n == 0 ? null : cast.evaluate(block, present, n, 0);
            int next = 0;
            for (int r = 0; r < rows; r++) {
                if (next < n && present[next] == r) {
                    CompiledExpression.append(v, next++, to);
                } else {
                    to.appendDefault();
                }
            }
            return true;
        } catch (UnsupportedValueException | IllegalArgumentException | ArithmeticException e) {
            to.truncate(0);
            return false;
        }
    }

    /**
     * {@code CAST(column AS new type)} as the server computes it, or null when the engine does not
     * convert between these types.
     */
    private static CompiledExpression castOf(Column old, TableSchema.Column now, ZoneId zone) {
        ClickHouseType from = old.type();
        if (now.type() == null || from == null) {
            return null;
        }
        try {
            Bindings b = new Bindings(zone).column(old.name(), from);
            return CompiledExpression.compile(new Expr.Identifier(old.name()), b, now.type());
        } catch (UnsupportedExpressionException e) {
            return null;
        }
    }

    /** Appends {@code v} (a column's {@code getObject}) through {@code converter}. */
    private static void appendObject(Converter converter, Column to, Object v) {
        switch (v) {
            case null -> converter.nul(to);
            case String s -> text(converter, to, s);
            case Long x -> converter.integer(to, x);
            case Integer x -> converter.integer(to, x);
            case Double x -> converter.floating(to, x);
            case Float x -> converter.floating(to, x);
            case BigDecimal x -> number(converter, to, x.toPlainString());
            case BigInteger x -> number(converter, to, x.toString());
            case Boolean x -> converter.bool(to, x);
            case UUID x -> text(converter, to, x.toString());
            case byte[] x -> converter.text(to, x, 0, x.length);
            default ->
                    throw new IllegalArgumentException(
                            "a " + v.getClass().getSimpleName() + " value is not converted here");
        }
    }

    private static void text(Converter converter, Column to, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        converter.text(to, b, 0, b.length);
    }

    private static void number(Converter converter, Column to, String digits) {
        byte[] b = digits.getBytes(StandardCharsets.US_ASCII);
        converter.number(to, b, 0, b.length);
    }

    /** The old value, for messages: text quoted, at most {@value #SHOWN_CHARS} characters. */
    private static String show(Column c, int row) {
        Object v;
        try {
            v = c.getObject(row);
        } catch (RuntimeException e) {
            return "(unreadable)";
        }
        String s =
                switch (v) {
                    case null -> "NULL";
                    case String t -> "'" + t + "'";
                    case byte[] b -> "'" + new String(b, StandardCharsets.UTF_8) + "'";
                    case Object[] a -> Arrays.toString(a);
                    default -> v.toString();
                };
        return s.length() > SHOWN_CHARS ? s.substring(0, SHOWN_CHARS) + "…" : s;
    }
}
