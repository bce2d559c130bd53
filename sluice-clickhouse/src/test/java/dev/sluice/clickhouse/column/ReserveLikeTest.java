package dev.sluice.clickhouse.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReserveLikeTest {
    private static Block block() {
        return Block.of(
                List.of(
                        ColumnFactory.create("id", "UInt64"),
                        ColumnFactory.create("s", "String"),
                        ColumnFactory.create("n", "Nullable(String)")));
    }

    @Test
    void aBlockTakesTheCapacityOfAnotherAndStaysEmptyAndUsable() {
        Block grown = block();
        for (int r = 0; r < 5_000; r++) {
            grown.column(0).appendLong(r);
            grown.column(1).appendString("value " + r);
            grown.column(2).appendNull();
        }
        Block fresh = block();
        fresh.reserveLike(grown);

        assertThat(fresh.rows()).isZero();
        assertThat(fresh.dataBytes()).isZero();
        StringColumn s = (StringColumn) fresh.column(1);
        assertThat(s.rawBytes().length)
                .isGreaterThanOrEqualTo(((StringColumn) grown.column(1)).rawBytes().length);
        assertThat(((FixedWidthColumn) fresh.column(0)).rawData().length)
                .isGreaterThanOrEqualTo(((FixedWidthColumn) grown.column(0)).rawData().length);

        fresh.column(0).appendLong(7);
        fresh.column(1).appendString("seven");
        fresh.column(2).appendString("x"); // no flat buffer: reserveLike left it alone
        assertThat(fresh.rows()).isEqualTo(1);
        assertThat(fresh.column(1).getString(0)).isEqualTo("seven");
        assertThat(fresh.column(2).getString(0)).isEqualTo("x");
    }

    @Test
    void aSmallerModelNeverShrinksAColumn() {
        StringColumn big = (StringColumn) ColumnFactory.create("s", "String");
        big.appendString("y".repeat(100_000));
        int capacity = big.rawBytes().length;
        big.reset();
        big.reserveLike(ColumnFactory.create("s", "String"));
        assertThat(big.rawBytes().length).isEqualTo(capacity);
    }

    @Test
    void blocksOfDifferentColumnsAreRefused() {
        Block one = Block.of(List.of(ColumnFactory.create("id", "UInt64")));
        assertThatThrownBy(() -> one.reserveLike(block()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reserveMoreMakesRoomForAConcatenationSoThatAppendingGrowsNothing() {
        Block[] segments = new Block[3];
        long[] bytes = new long[3];
        int rows = 0;
        for (int k = 0; k < segments.length; k++) {
            segments[k] = block();
            for (int r = 0; r < 1_000 * (k + 1); r++) {
                segments[k].column(0).appendLong(k * 10_000L + r);
                segments[k].column(1).appendString("v".repeat(r % 300) + k);
                segments[k].column(2).appendNull();
            }
            rows += segments[k].rows();
            for (int c = 0; c < 3; c++) {
                bytes[c] += segments[k].column(c).dataBytes();
            }
        }
        Block to = block();
        to.column(0).appendLong(99_999); // room is made past what a column already holds
        to.column(1).appendString("first");
        to.column(2).appendString("first");
        for (int c = 0; c < 3; c++) {
            to.column(c).reserveMore(rows, bytes[c]);
        }
        byte[] ids = ((FixedWidthColumn) to.column(0)).rawData();
        byte[] strings = ((StringColumn) to.column(1)).rawBytes();
        for (Block from : segments) {
            for (int c = 0; c < 3; c++) {
                to.column(c).appendAll(from.column(c));
            }
        }

        assertThat(((FixedWidthColumn) to.column(0)).rawData()).isSameAs(ids);
        assertThat(((StringColumn) to.column(1)).rawBytes()).isSameAs(strings);
        assertThat(to.rows()).isEqualTo(rows + 1);
        assertThat(to.column(1).getString(0)).isEqualTo("first");
        int at = 1;
        for (Block from : segments) {
            for (int r = 0; r < from.rows(); r++, at++) {
                assertThat(to.column(0).getLong(at)).isEqualTo(from.column(0).getLong(r));
                assertThat(to.column(1).getString(at)).isEqualTo(from.column(1).getString(r));
                assertThat(to.column(2).isNull(at)).isTrue();
            }
        }
    }

    @Test
    void reserveMoreRefusesNegativeSizes() {
        Column s = ColumnFactory.create("s", "String");
        Column id = ColumnFactory.create("id", "UInt64");
        assertThatThrownBy(() -> s.reserveMore(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.reserveMore(1, -5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> id.reserveMore(-1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
