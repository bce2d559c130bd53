package dev.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class RecordValuesTest {
    @Test
    void aStructBecomesItsFieldsWithNestedStructsAsMaps() {
        Schema point =
                SchemaBuilder.struct()
                        .field("x", Schema.INT32_SCHEMA)
                        .field("y", Schema.INT32_SCHEMA)
                        .build();
        Schema schema =
                SchemaBuilder.struct()
                        .field("id", Schema.INT64_SCHEMA)
                        .field("price", Decimal.schema(2))
                        .field("at", Timestamp.SCHEMA)
                        .field("note", Schema.OPTIONAL_STRING_SCHEMA)
                        .field("where", point)
                        .field("path", SchemaBuilder.array(point).build())
                        .build();
        Struct a = new Struct(point).put("x", 1).put("y", 2);
        Struct b = new Struct(point).put("x", 3).put("y", 4);
        Struct s =
                new Struct(schema)
                        .put("id", 7L)
                        .put("price", new BigDecimal("12.34"))
                        .put("at", new Date(1_700_000_000_000L))
                        .put("where", a)
                        .put("path", List.of(a, b));
        Map<String, Object> f = RecordValues.fields(s);
        assertThat(f.keySet()).containsExactly("id", "price", "at", "note", "where", "path");
        assertThat(f.get("id")).isEqualTo(7L);
        assertThat(f.get("price")).isEqualTo(new BigDecimal("12.34"));
        assertThat(f.get("at")).isEqualTo(new Date(1_700_000_000_000L));
        assertThat(f.get("note")).isNull();
        assertThat(f.get("where")).isEqualTo(Map.of("x", 1, "y", 2));
        assertThat(f.get("path"))
                .isEqualTo(List.of(Map.of("x", 1, "y", 2), Map.of("x", 3, "y", 4)));
    }

    @Test
    void aSchemalessMapIsTakenAsItIs() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", 1L);
        m.put("tags", List.of("a", "b"));
        assertThat(RecordValues.fields(m)).isEqualTo(m);
    }

    @Test
    void valuesThatAreNotRowsAreRefusedSayingWhatTheyAre() {
        assertThatThrownBy(() -> RecordValues.fields("just text"))
                .isInstanceOf(DataException.class)
                .hasMessageContaining("not a String");
        assertThatThrownBy(() -> RecordValues.fields(List.of(1, 2)))
                .isInstanceOf(DataException.class)
                .hasMessageContaining("map (schemaless JSON) or a Struct");
        assertThatThrownBy(() -> RecordValues.fields(Map.of(1, "x")))
                .isInstanceOf(DataException.class)
                .hasMessageContaining("keys must be field names (strings), not a Integer");
    }
}
