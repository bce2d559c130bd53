package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NativeInsertSmokeIT {
    @Test
    void insertsAndReadsBack() {
        String table = TestServer.newTable("smoke");
        try (NativeConnection c = TestServer.connect()) {
            c.execute(
                    "CREATE TABLE "
                            + table
                            + " (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
            InsertResult r;
            try (Insert ins = c.insert(table, List.of(), Map.of())) {
                for (int i = 0; i < 1000; i++) {
                    ins.column("id").appendLong(i);
                    ins.column("s").appendString("row " + i);
                    ins.endRow();
                }
                r = ins.finish();
            }
            assertThat(r.rows()).isEqualTo(1000);
            List<List<Object>> rows = c.queryRows("SELECT count(), sum(id), any(s) FROM " + table);
            assertThat(rows).hasSize(1);
            assertThat(rows.get(0).get(0)).isEqualTo(1000L);
            assertThat(rows.get(0).get(1)).isEqualTo(499500L);
        }
        assertThat(TestServer.clickhouseClient("SELECT count() FROM " + table).trim())
                .isEqualTo("1000");
    }
}
