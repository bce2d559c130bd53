package dev.sluice.pipeline.decode.convert;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.NullableColumn;
import dev.sluice.clickhouse.types.ClickHouseType;

/**
 * Nullable(T): NULL, or T's value appended to the inner column and marked not-null — so T's
 * converter may use the inner column's own appends (such as Decimal's unscaled ones). Inside
 * LowCardinality the column itself takes both NULL and T's values ({@code direct}).
 */
final class NullableConverter extends Converter {
    private final Converter inner;
    private final boolean direct;

    NullableConverter(ClickHouseType type, Converter inner, boolean direct) {
        super(type);
        this.inner = inner;
        this.direct = direct;
    }

    @Override
    public void text(Column c, byte[] b, int off, int len) {
        if (direct) {
            inner.text(c, b, off, len);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.text(n.inner(), b, off, len);
            n.markNotNull();
        }
    }

    @Override
    public void number(Column c, byte[] b, int off, int len) {
        if (direct) {
            inner.number(c, b, off, len);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.number(n.inner(), b, off, len);
            n.markNotNull();
        }
    }

    @Override
    public void integer(Column c, long v) {
        if (direct) {
            inner.integer(c, v);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.integer(n.inner(), v);
            n.markNotNull();
        }
    }

    @Override
    public void floating(Column c, double v) {
        if (direct) {
            inner.floating(c, v);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.floating(n.inner(), v);
            n.markNotNull();
        }
    }

    @Override
    public void bool(Column c, boolean v) {
        if (direct) {
            inner.bool(c, v);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.bool(n.inner(), v);
            n.markNotNull();
        }
    }

    @Override
    public void date(Column c, int days) {
        if (direct) {
            inner.date(c, days);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.date(n.inner(), days);
            n.markNotNull();
        }
    }

    @Override
    public void dateTime(Column c, long seconds) {
        if (direct) {
            inner.dateTime(c, seconds);
        } else {
            NullableColumn n = (NullableColumn) c;
            inner.dateTime(n.inner(), seconds);
            n.markNotNull();
        }
    }

    @Override
    public void nul(Column c) {
        c.appendNull();
    }

    @Override
    public boolean takesJsonText() {
        return inner.takesJsonText();
    }

    @Override
    public boolean nullable() {
        return true;
    }
}
