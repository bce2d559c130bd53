package dev.sluice.clickhouse.expr;

/**
 * The records that the rows of an evaluation were decoded from, for {@code raw()}: the bytes of the
 * record behind block row {@code row} are {@code bytes()[start(row), end(row))}. All records share
 * one array (a pipeline's read buffer), so {@code raw()} reads them without copying.
 */
public interface RawRecords {
    byte[] bytes();

    int start(int row);

    int end(int row);
}
