package dev.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** POJO, record and RowData elements as the fields the writer takes. */
class ElementFieldsTest {
    public record Click(long id, String page) {}

    public static final class Order {
        public long id = 5;
        public static String ignored = "static";

        public String getCustomer() {
            return "ann";
        }

        public boolean isPaid() {
            return true;
        }

        public String describe() {
            return "not a getter";
        }
    }

    public static final class Empty {}

    @Test
    void recordsAndPojosGiveTheirFieldsByName() {
        assertThat(PojoFields.of(Click.class).fields(new Click(1, "/a")))
                .isEqualTo(Map.of("id", 1L, "page", "/a"));
        assertThat(PojoFields.of(Order.class).fields(new Order()))
                .isEqualTo(Map.of("id", 5L, "customer", "ann", "paid", true));
    }

    @Test
    void aClassWithoutFieldsAndNullElementsAreRefused() {
        assertThatThrownBy(() -> PojoFields.of(Empty.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no public fields, getters or record components");
        assertThatThrownBy(() -> PojoFields.of(Click.class).fields(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null element");
        assertThatThrownBy(() -> RecordFields.maps().fields(null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rowDataFieldsAreTheirExternalJavaValues() {
        RowType type =
                RowType.of(
                        new LogicalType[] {
                            new BigIntType(),
                            new VarCharType(10),
                            new DecimalType(10, 2),
                            new DateType(),
                            new TimestampType(3),
                            new LocalZonedTimestampType(3),
                            new IntType()
                        },
                        new String[] {"id", "name", "price", "day", "local", "moment", "n"});
        Instant t = Instant.ofEpochSecond(1_700_000_000L, 123_000_000);
        GenericRowData row =
                GenericRowData.of(
                        9L,
                        StringData.fromString("x"),
                        DecimalData.fromBigDecimal(new BigDecimal("1.50"), 10, 2),
                        19_000,
                        TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 5, 1, 12, 0)),
                        TimestampData.fromInstant(t),
                        null);
        Map<String, ?> f = RowDataFields.of(type).fields(row);
        assertThat(f.get("id")).isEqualTo(9L);
        assertThat(f.get("name")).isEqualTo("x");
        assertThat(f.get("price")).isEqualTo(new BigDecimal("1.50"));
        assertThat(f.get("day")).isEqualTo(LocalDate.ofEpochDay(19_000));
        assertThat(f.get("local")).isEqualTo(LocalDateTime.of(2024, 5, 1, 12, 0));
        assertThat(f.get("moment")).isEqualTo(t);
        assertThat(f.containsKey("n")).isTrue();
        assertThat(f.get("n")).isNull();
    }

    @Test
    void rowTypesWithFieldsItCannotTakeAreRefusedNamingTheField() {
        RowType type =
                RowType.of(
                        new LogicalType[] {new BigIntType(), new ArrayType(new IntType())},
                        new String[] {"id", "tags"});
        assertThatThrownBy(() -> RowDataFields.of(type))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field tags has type ARRAY<INT>");
    }
}
