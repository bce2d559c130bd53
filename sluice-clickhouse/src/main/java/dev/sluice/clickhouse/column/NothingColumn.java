package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.types.SimpleType;

/** Nothing: the type of NULL literals, one placeholder byte per row. Only NULLs fit. */
public final class NothingColumn extends FixedWidthColumn {

    public NothingColumn(String name) {
        super(name, SimpleType.NOTHING, 1);
    }

    @Override
    public void appendNull() {
        appendDefault();
    }

    @Override
    public Object getObject(int row) {
        checkRow(row);
        return null;
    }

    @Override
    public boolean isNull(int row) {
        return true;
    }
}
