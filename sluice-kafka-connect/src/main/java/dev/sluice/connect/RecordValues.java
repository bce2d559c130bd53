package dev.sluice.connect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * A record's value as the field → value map the writer's {@code Rows.add} takes: a schemaless map
 * (the JSON converter with {@code schemas.enable=false}) as it is, a {@link Struct} (JSON with
 * schemas, Avro, Protobuf converters) field by field, nested structs as maps ({@link RowFiller}
 * fills rows the same way without building the map). Connect's logical types arrive as Java values
 * the writer converts: Decimal as {@code BigDecimal}, Date, Time and Timestamp as {@code
 * java.util.Date}.
 */
final class RecordValues {
    private RecordValues() {}

    /**
     * The fields of {@code value}.
     *
     * @throws DataException when the value is neither a map nor a struct
     */
    static Map<String, Object> fields(Object value) {
        if (value instanceof Struct s) {
            return struct(s);
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new DataException(
                            "a record value's keys must be field names (strings), not "
                                    + typeOf(e.getKey()));
                }
                out.put(k, e.getValue());
            }
            return out;
        }
        throw new DataException(
                "a record value must be a map (schemaless JSON) or a Struct to become a row, not "
                        + typeOf(value));
    }

    private static Map<String, Object> struct(Struct s) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Field f : s.schema().fields()) {
            out.put(f.name(), nested(s.get(f)));
        }
        return out;
    }

    /** {@code v} with its structs, also inside lists and maps, as maps. */
    static Object nested(Object v) {
        if (v instanceof Struct s) {
            return struct(s);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) {
                out.add(nested(o));
            }
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(e.getKey(), nested(e.getValue()));
            }
            return out;
        }
        return v;
    }

    static String typeOf(Object v) {
        return v == null ? "null" : "a " + v.getClass().getSimpleName();
    }
}
