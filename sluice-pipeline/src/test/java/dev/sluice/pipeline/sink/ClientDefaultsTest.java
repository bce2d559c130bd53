package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.testing.Tables;
import java.math.BigDecimal;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class ClientDefaultsTest {

    private static Object filled(String column, ZoneId zone, long nowMillis) {
        TableSchema t = Tables.table("t", column);
        TargetColumns cols = new TargetColumns(t, t.insertableColumns());
        ClientDefaults d = ClientDefaults.of(cols, zone);
        assertThat(d.unsupported(0)).isNull();
        Column c = cols.newBlock().column(0);
        c.appendDefault();
        d.fill(0, c, nowMillis);
        assertThat(c.rows()).isEqualTo(1);
        return c.getObject(0);
    }

    @Test
    void literalsOfEachKindFitTheirColumn() {
        ZoneId utc = ZoneId.of("UTC");
        assertThat(filled("a Int8 DEFAULT -3", utc, 0)).isEqualTo(-3L);
        assertThat(filled("a Float64 DEFAULT -1.5", utc, 0)).isEqualTo(-1.5);
        assertThat(filled("a Decimal(10, 2) DEFAULT CAST(1.25, 'Decimal(10, 2)')", utc, 0))
                .isEqualTo(new BigDecimal("1.25"));
        assertThat(filled("a Nullable(String) DEFAULT CAST(NULL, 'Nullable(String)')", utc, 0))
                .isNull();
        assertThat(
                        filled(
                                "a Enum8('x' = 1, 'y' = 2) DEFAULT CAST('y', 'Enum8(\\'x\\' = 1, \\'y\\' = 2)')",
                                utc,
                                0))
                .isEqualTo("y");
        assertThat(filled("a String DEFAULT toString(5)", utc, 0)).isEqualTo("5");
    }

    @Test
    void dateTimeTextIsReadInTheColumnsOrTheServersZone() {
        assertThat(
                        filled(
                                "a DateTime DEFAULT CAST('2020-01-01 00:00:00', 'DateTime')",
                                ZoneId.of("Europe/Berlin"),
                                0))
                .isEqualTo(1577833200L);
        assertThat(
                        filled(
                                "a DateTime('UTC') DEFAULT '2020-01-01 00:00:00'",
                                ZoneId.of("Europe/Berlin"),
                                0))
                .isEqualTo(1577836800L);
    }

    @Test
    void todayIsTheServersDate() {
        long justBeforeMidnightUtc = 1_700_006_399_000L; // 2023-11-14 23:59:59 UTC
        assertThat(filled("a Date DEFAULT today()", ZoneId.of("UTC"), justBeforeMidnightUtc))
                .isEqualTo(19675L);
        assertThat(filled("a Date DEFAULT today()", ZoneId.of("Asia/Tokyo"), justBeforeMidnightUtc))
                .isEqualTo(19676L);
    }

    @Test
    void anExpressionThatDoesNotFitTheColumnIsUnsupported() {
        TableSchema t = Tables.table("t", "a UInt8 DEFAULT 'text'", "b String DEFAULT rand()");
        ClientDefaults d =
                ClientDefaults.of(new TargetColumns(t, t.insertableColumns()), ZoneId.of("UTC"));
        assertThat(d.unsupported(0)).contains("column a has DEFAULT 'text'");
        assertThat(d.unsupported(1)).contains("rand()");
        assertThat(d.computes(0)).isFalse();
    }
}
