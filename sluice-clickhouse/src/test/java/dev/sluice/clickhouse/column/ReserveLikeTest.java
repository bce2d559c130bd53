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
}
