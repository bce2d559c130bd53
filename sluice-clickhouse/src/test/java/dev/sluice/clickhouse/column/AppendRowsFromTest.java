package dev.sluice.clickhouse.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Column#appendRowsFrom} for every column type: a gather by any row list (permutation,
 * repeats, a slice) gives the source's values in that order, appends after existing rows, encodes
 * as if the rows had been appended one by one, and refuses foreign columns and bad rows without
 * changing the target.
 */
class AppendRowsFromTest {

    static List<String> types() {
        return ColumnContractTest.types();
    }

    @ParameterizedTest
    @MethodSource("types")
    void gathersRowsInTheGivenOrder(String type) {
        Random rnd = new Random(type.hashCode());
        Column source = ColumnFactory.create("c", type);
        RandomRows.append(source, rnd, 300);
        int[] rows = new int[700];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = rnd.nextInt(300); // with repeats
        }
        Column target = ColumnFactory.create("c", type);
        RandomRows.append(target, rnd, 5);
        List<Object> expected = new ArrayList<>(ColumnTestSupport.values(target));
        List<Object> sourceValues = ColumnTestSupport.values(source);
        for (int i = 100; i < 650; i++) {
            expected.add(sourceValues.get(rows[i]));
        }

        target.appendRowsFrom(source, rows, 100, 650);

        assertThat(target.rows()).isEqualTo(555);
        assertThat(ColumnTestSupport.values(target)).isEqualTo(expected);
        // What goes on the wire reads back as the same rows.
        Column decoded = ColumnTestSupport.decode(type, ColumnTestSupport.encode(target), 555);
        assertThat(ColumnTestSupport.values(decoded)).isEqualTo(expected);
    }

    /** {@link Column#appendAll}: whole columns one after another, as a batch of segments is. */
    @ParameterizedTest
    @MethodSource("types")
    void appendsWholeColumnsOneAfterAnother(String type) {
        Random rnd = new Random(type.hashCode() * 31L);
        Column target = ColumnFactory.create("c", type);
        RandomRows.append(target, rnd, 3);
        List<Object> expected = new ArrayList<>(ColumnTestSupport.values(target));
        for (int size : new int[] {200, 0, 1, 77}) {
            Column segment = ColumnFactory.create("c", type);
            RandomRows.append(segment, rnd, size);
            expected.addAll(ColumnTestSupport.values(segment));
            target.appendAll(segment);
            assertThat(segment.rows()).as("the source is left as it was").isEqualTo(size);
        }
        assertThat(target.rows()).isEqualTo(281);
        assertThat(ColumnTestSupport.values(target)).isEqualTo(expected);
        Column decoded = ColumnTestSupport.decode(type, ColumnTestSupport.encode(target), 281);
        assertThat(ColumnTestSupport.values(decoded)).isEqualTo(expected);
        assertThatThrownBy(() -> target.appendAll(target))
                .isInstanceOf(IllegalArgumentException.class);
        Column other = ColumnFactory.create("c", type.equals("String") ? "UInt8" : "String");
        assertThatThrownBy(() -> target.appendAll(other))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(target.rows()).isEqualTo(281);
    }

    @ParameterizedTest
    @MethodSource("types")
    void reversesAWholeColumn(String type) {
        Column source = ColumnFactory.create("c", type);
        RandomRows.append(source, new Random(7), 64);
        int[] reverse = new int[64];
        for (int i = 0; i < 64; i++) {
            reverse[i] = 63 - i;
        }
        Column target = ColumnFactory.create("c", type);
        target.appendRowsFrom(source, reverse, 0, 64);
        List<Object> expected = new ArrayList<>(ColumnTestSupport.values(source));
        java.util.Collections.reverse(expected);
        assertThat(ColumnTestSupport.values(target)).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("types")
    void refusesBadArgumentsWithoutChangingTheTarget(String type) {
        Column source = ColumnFactory.create("c", type);
        RandomRows.append(source, new Random(3), 10);
        Column target = ColumnFactory.create("c", type);
        RandomRows.append(target, new Random(4), 3);
        List<Object> before = ColumnTestSupport.values(target);

        assertThatThrownBy(() -> target.appendRowsFrom(source, new int[] {0, 10}, 0, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> target.appendRowsFrom(source, new int[] {1}, 0, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> target.appendRowsFrom(target, new int[] {0}, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        Column other = ColumnFactory.create("c", type.equals("String") ? "UInt8" : "String");
        assertThatThrownBy(() -> target.appendRowsFrom(other, new int[0], 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ColumnTestSupport.values(target)).isEqualTo(before);
    }
}
