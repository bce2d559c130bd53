package dev.sluice.pipeline.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.pipeline.sink.RejectedRows;
import dev.sluice.pipeline.sink.SealedBatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables altered while the writer writes to them, on the real server (18.16 in CI), over both
 * transports: rows staged before {@code ALTER TABLE ... DROP, MODIFY, ADD COLUMN} are re-encoded
 * when the server refuses them and written under their token; rows made afterwards have the new
 * columns; a value that cannot take a column's new type goes to the rejected-row handler with the
 * reason (or fails its batch) and is never written as something else; the periodic look at the
 * table's columns notices an added column no INSERT is refused for. Every row is read back and
 * compared value by value.
 */
@Timeout(300)
class TableChangesIT {

    private static String url(String transport) {
        if (transport.equals("native")) {
            return TestServer.url();
        }
        String http = TestServer.env("CLICKHOUSE_HTTP_URL");
        assertThat(http).as("the private server's HTTP URL (CLICKHOUSE_HTTP_URL)").isNotNull();
        return http;
    }

    private static List<List<Object>> rows(String sql) {
        try (NativeConnection c = TestServer.connect()) {
            return c.queryRows(sql);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "http"})
    void rowsStagedBeforeDropModifyAndAddAreReencodedAndWrittenOnceUnderTheirToken(String transport)
            throws Exception {
        String table = TestServer.newTable("alter_staged_" + transport);
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, a String, b UInt32, c String) ENGINE = MergeTree ORDER BY"
                        + " id");
        List<String> changes = new CopyOnWriteArrayList<>();
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(url(transport), table)
                        .schemaCheckInterval(Duration.ZERO) // only the refusal notices
                        .changes(changes::add)
                        .build()) {
            Rows before = w.newRows();
            for (long id = 0; id < 1000; id++) {
                before.set("id", id).set("a", "a" + id).set("b", id * 7).set("c", "c" + id);
                before.endRow();
            }
            TestServer.execute("ALTER TABLE " + table + " DROP COLUMN c");
            TestServer.execute("ALTER TABLE " + table + " MODIFY COLUMN b UInt64");
            TestServer.execute("ALTER TABLE " + table + " ADD COLUMN d String DEFAULT 'dflt'");
            Written first = w.submit(before, "staged-before").get(60, TimeUnit.SECONDS);
            assertThat(first.rows()).isEqualTo(1000);
            assertThat(changes)
                    .singleElement()
                    .asString()
                    .contains("dropped c", "b UInt32 → UInt64", "added d String")
                    .contains("refusing an INSERT");
            Rows after = w.newRows();
            assertThat(after.columnNames()).containsExactly("id", "a", "b", "d");
            for (long id = 1000; id < 1500; id++) {
                after.set("id", id).set("a", "a" + id).set("b", 5_000_000_000L + id);
                after.set("d", "d" + id).endRow();
            }
            w.submit(after, "made-after").get(60, TimeUnit.SECONDS);
            assertThat(w.stats().rowsWritten()).isEqualTo(1500);
        }
        List<List<Object>> back = rows("SELECT id, a, b, d FROM " + table + " ORDER BY id");
        assertThat(back).hasSize(1500);
        for (List<Object> r : back) {
            long id = (Long) r.get(0);
            List<Object> expected =
                    id < 1000
                            ? List.of(id, "a" + id, id * 7, "dflt")
                            : List.of(id, "a" + id, 5_000_000_000L + id, "d" + id);
            assertThat(r).as("row %d", id).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"native", "http"})
    void aValueTheNewTypeCannotTakeGoesToTheHandlerWithTheReasonAndTheRestIsWritten(
            String transport) throws Exception {
        String table = TestServer.newTable("alter_refused_" + transport);
        TestServer.execute(
                "CREATE TABLE "
                        + table
                        + " (id UInt64, v String, n Nullable(UInt8)) ENGINE = MergeTree ORDER BY"
                        + " id");
        List<String> handled = new CopyOnWriteArrayList<>();
        RejectedRows handler =
                new RejectedRows() {
                    @Override
                    public boolean bisects() {
                        return true;
                    }

                    @Override
                    public String reject(SealedBatch.RowSource source, byte[] row, String reason) {
                        handled.add(
                                source.position()
                                        + " "
                                        + new String(row, StandardCharsets.UTF_8)
                                        + " "
                                        + reason);
                        return null;
                    }
                };
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(url(transport), table)
                        .schemaCheckInterval(Duration.ZERO)
                        .rejectedRows(handler)
                        .build()) {
            Rows rows = w.newRows();
            for (long id = 0; id < 100; id++) {
                // every 10th v is no number; every 7th n is NULL
                rows.set("id", id).set("v", id % 10 == 3 ? "x" + id : Long.toString(id * 3));
                rows.set("n", id % 7 == 0 ? null : id % 200);
                rows.endRow();
            }
            TestServer.execute("ALTER TABLE " + table + " MODIFY COLUMN v UInt32");
            TestServer.execute("ALTER TABLE " + table + " MODIFY COLUMN n UInt8");
            Written written = w.submit(rows, "refused-values").get(60, TimeUnit.SECONDS);
            assertThat(written.rows()).isEqualTo(100);
        }
        // rows 3, 13, ..., 93 (no number), and 0, 7, 14, ... (NULL for a column no longer
        // Nullable) went to the handler, each with its reason; never written as 0 or NULL
        List<Long> refused = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            if (id % 10 == 3 || id % 7 == 0) {
                refused.add(id);
            }
        }
        assertThat(handled).hasSize(refused.size());
        for (String h : handled) {
            long id = Long.parseLong(h.substring(0, h.indexOf(' ')));
            assertThat(refused).as(h).contains(id);
            assertThat(h).contains("{\"id\":" + id + ",").contains("while the row was in flight");
            assertThat(h)
                    .contains(
                            id % 10 == 3 // the first column that refuses a row names it
                                    ? "column v changed from String to UInt32"
                                    : "column n changed from Nullable(UInt8) to UInt8");
        }
        List<List<Object>> back = rows("SELECT id, v, n FROM " + table + " ORDER BY id");
        List<List<Object>> expected = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            if (!refused.contains(id)) {
                expected.add(List.of(id, id * 3, id % 200));
            }
        }
        assertThat(back).isEqualTo(expected);
    }

    @Test
    void byDefaultAValueThatCannotBeConvertedFailsItsBatchNamingItAndNothingIsWritten()
            throws Exception {
        String table = TestServer.newTable("alter_fails");
        TestServer.execute(
                "CREATE TABLE " + table + " (id UInt64, v String) ENGINE = MergeTree ORDER BY id");
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(TestServer.url(), table)
                        .schemaCheckInterval(Duration.ZERO)
                        .build()) {
            Rows rows = w.newRows();
            rows.set("id", 1).set("v", "12").endRow();
            rows.set("id", 2).set("v", "twelve").endRow();
            TestServer.execute("ALTER TABLE " + table + " MODIFY COLUMN v UInt32");
            CompletableFuture<Written> done = w.submit(rows, "fails");
            assertThatThrownBy(() -> done.get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("column v changed from String to UInt32")
                    .hasMessageContaining("'twelve'")
                    .hasMessageContaining("rows submitted with token fails at position 1");
        }
        assertThat(TestServer.single("SELECT count() FROM " + table)).isZero();
    }

    @Test
    void thePeriodicLookNoticesAnAddedColumnAndNewRowsFillIt() throws Exception {
        String table = TestServer.newTable("alter_check");
        TestServer.execute(
                "CREATE TABLE " + table + " (id UInt64, a String) ENGINE = MergeTree ORDER BY id");
        List<String> changes = new CopyOnWriteArrayList<>();
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(TestServer.url(), table)
                        .schemaCheckInterval(Duration.ofMillis(200))
                        .batch(1000, 64 << 20, Duration.ofMillis(100))
                        .changes(changes::add)
                        .build()) {
            Rows old = w.newRows();
            old.set("id", 1).set("a", "one").endRow();
            w.submit(old).get(60, TimeUnit.SECONDS);
            Rows staged = w.newRows(); // made before the ALTER, submitted after it
            staged.set("id", 2).set("a", "two").endRow();
            TestServer.execute("ALTER TABLE " + table + " ADD COLUMN b String DEFAULT 'none'");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // the listener hears of the change just after the new layout is in place
            while (w.layout().columns().indexOf("b") < 0 || changes.isEmpty()) {
                assertThat(System.nanoTime() < deadline)
                        .as("the writer noticed the added column within 30 s")
                        .isTrue();
                Thread.sleep(50);
            }
            assertThat(changes)
                    .singleElement()
                    .asString()
                    .contains("added b String", "the look at its columns every 200 ms");
            Rows fresh = w.newRows();
            fresh.set("id", 3).set("a", "three").set("b", "bee").endRow();
            // gathered: the old-layout rows and the new ones go in batches of their own layout
            CompletableFuture<Written> s = w.submit(staged);
            CompletableFuture<Written> f = w.submit(fresh);
            w.flush();
            assertThat(s.get().rows()).isEqualTo(1);
            assertThat(f.get().rows()).isEqualTo(1);
        }
        assertThat(rows("SELECT id, a, b FROM " + table + " ORDER BY id"))
                .containsExactly(
                        List.of(1L, "one", "none"),
                        List.of(2L, "two", "none"),
                        List.of(3L, "three", "bee"));
    }
}
