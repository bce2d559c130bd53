package dev.sluice.flink;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a stream element becomes a row: its fields by column name (a column without an entry gets its
 * DEFAULT). Built in: {@link #maps()}, {@link PojoFields#of(Class)} and {@link RowDataFields#of}.
 * Shipped to the task managers with the sink: keep it serializable.
 */
@FunctionalInterface
public interface RecordFields<T> extends Serializable {
    /**
     * The fields of {@code element}.
     *
     * @throws IllegalArgumentException when the element cannot become a row (the sink fails the job
     *     with the message, naming the subtask)
     */
    Map<String, ?> fields(T element);

    /** {@code Map} elements, keys being column names. */
    static RecordFields<Map<String, Object>> maps() {
        return m -> {
            if (m == null) {
                throw new IllegalArgumentException("a null element cannot become a row");
            }
            return new LinkedHashMap<>(m);
        };
    }
}
