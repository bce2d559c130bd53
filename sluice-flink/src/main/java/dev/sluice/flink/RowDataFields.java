package dev.sluice.flink;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The fields of Flink's internal {@link RowData} (the Table API's rows), named and typed by a
 * {@link RowType}: strings, numbers, booleans, DECIMAL, DATE, TIMESTAMP (wall-clock time in the
 * column's time zone) and TIMESTAMP_LTZ (a moment), BINARY/VARBINARY. Other types (arrays, maps,
 * nested rows) are refused with the field's name when the sink is built.
 */
public final class RowDataFields implements RecordFields<RowData> {
    private static final long serialVersionUID = 1L;

    private final List<String> names;
    private final List<LogicalType> types;
    private transient List<RowData.FieldGetter> getters;

    private RowDataFields(RowType rowType) {
        this.names = List.copyOf(rowType.getFieldNames());
        this.types = List.copyOf(rowType.getChildren());
        for (int i = 0; i < types.size(); i++) {
            if (!supported(types.get(i).getTypeRoot())) {
                throw new IllegalArgumentException(
                        "field "
                                + names.get(i)
                                + " has type "
                                + types.get(i)
                                + ", which the ClickHouse sink does not take from RowData");
            }
        }
    }

    /** Rows of type {@code rowType} (e.g. {@code (RowType) dataType.getLogicalType()}). */
    public static RowDataFields of(RowType rowType) {
        return new RowDataFields(rowType);
    }

    @Override
    public Map<String, ?> fields(RowData row) {
        if (row == null) {
            throw new IllegalArgumentException("a null row cannot become a row");
        }
        if (getters == null) {
            List<RowData.FieldGetter> g = new ArrayList<>(types.size());
            for (int i = 0; i < types.size(); i++) {
                g.add(RowData.createFieldGetter(types.get(i), i));
            }
            getters = g;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            out.put(names.get(i), external(types.get(i), getters.get(i).getFieldOrNull(row)));
        }
        return out;
    }

    private static Object external(LogicalType type, Object v) {
        if (v == null) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case CHAR, VARCHAR -> ((StringData) v).toString();
            case DECIMAL -> ((DecimalData) v).toBigDecimal();
            case DATE -> LocalDate.ofEpochDay((Integer) v);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampData) v).toLocalDateTime();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((TimestampData) v).toInstant();
            default -> v; // Boolean, Byte, Short, Integer, Long, Float, Double, byte[]
        };
    }

    private static boolean supported(LogicalTypeRoot root) {
        return switch (root) {
            case CHAR,
                    VARCHAR,
                    BOOLEAN,
                    BINARY,
                    VARBINARY,
                    DECIMAL,
                    TINYINT,
                    SMALLINT,
                    INTEGER,
                    BIGINT,
                    FLOAT,
                    DOUBLE,
                    DATE,
                    TIMESTAMP_WITHOUT_TIME_ZONE,
                    TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
                    true;
            default -> false;
        };
    }
}
