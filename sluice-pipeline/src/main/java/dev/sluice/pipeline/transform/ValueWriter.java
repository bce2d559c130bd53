package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.transform.expr.EvalContext;
import dev.sluice.pipeline.transform.expr.Expr;
import dev.sluice.pipeline.transform.expr.Slice;

/**
 * Appends an expression's value to a column through the column's converter, so a text value becomes
 * a date in a Date column, an integer a DateTime in a DateTime column, and so on. NULL goes to a
 * Nullable column as NULL and to any other as the column's default.
 */
final class ValueWriter {
    private ValueWriter() {}

    static void write(Expr e, EvalContext c, ColumnSlot s, Column col) {
        switch (e.kind) {
            case STRING -> {
                Slice v = e.asString(c);
                if (!c.wasNull()) {
                    s.converter.text(col, v.bytes, v.off, v.len);
                    return;
                }
            }
            case FLOAT -> {
                double v = e.asDouble(c);
                if (!c.wasNull()) {
                    s.converter.floating(col, v);
                    return;
                }
            }
            case NULL -> {}
            default -> {
                long v = e.asLong(c);
                if (!c.wasNull()) {
                    switch (e.kind) {
                        case BOOL -> s.converter.bool(col, v != 0);
                        case DATE -> s.converter.date(col, (int) v);
                        case DATETIME -> s.converter.dateTime(col, v);
                        default -> s.converter.integer(col, v);
                    }
                    return;
                }
            }
        }
        if (s.converter.nullable()) {
            s.converter.nul(col);
        } else {
            col.appendDefault();
        }
    }
}
