package dev.sluice.pipeline.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One writer serving several tables of the real server at once: each table with its own columns,
 * batches and tokens, from several threads, every row read back value by value; a table that does
 * not exist fails where it is named.
 */
@Timeout(300)
class ManyTablesIT {

    @Test
    void oneWriterWritesTablesOfDifferentColumnsFromManyThreadsEachRowOnce() throws Exception {
        String clicks = TestServer.newTable("many_clicks");
        String views = TestServer.newTable("many_views");
        TestServer.execute(
                "CREATE TABLE "
                        + clicks
                        + " (id UInt64, url String, x Int32) ENGINE = MergeTree ORDER BY id");
        TestServer.execute(
                "CREATE TABLE "
                        + views
                        + " (id UInt64, page String, ms Float64, tag String DEFAULT 'none')"
                        + " ENGINE = MergeTree ORDER BY id");
        int threads = 4;
        int submissions = 10;
        int per = 300;
        try (ClickHouseWriter w =
                ClickHouseWriter.builder(TestServer.url())
                        .batch(2_000, 64 << 20, Duration.ofMillis(100))
                        .build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<List<CompletableFuture<Written>>>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                work.add(
                        pool.submit(
                                () -> {
                                    List<CompletableFuture<Written>> done = new ArrayList<>();
                                    for (int s = 0; s < submissions; s++) {
                                        long from = ((long) thread * submissions + s) * per;
                                        Rows c = w.newRows(clicks);
                                        Rows v = w.newRows(views);
                                        for (long id = from; id < from + per; id++) {
                                            c.set("id", id).set("url", "/c/" + id);
                                            c.set("x", (int) (id % 1000) - 500).endRow();
                                            v.set("id", id).set("page", "p" + id);
                                            v.set("ms", id / 4.0);
                                            if (id % 2 == 0) {
                                                v.set("tag", "t" + id);
                                            }
                                            v.endRow();
                                        }
                                        // the same token in both tables: tokens are per table
                                        String token = "t" + from;
                                        done.add(s % 2 == 0 ? w.submit(c, token) : w.submit(c));
                                        done.add(s % 2 == 0 ? w.submit(v, token) : w.submit(v));
                                    }
                                    return done;
                                }));
            }
            long acknowledged = 0;
            for (Future<List<CompletableFuture<Written>>> f : work) {
                for (CompletableFuture<Written> c : f.get(120, TimeUnit.SECONDS)) {
                    acknowledged += c.get(120, TimeUnit.SECONDS).rows();
                }
            }
            pool.shutdown();
            assertThat(acknowledged).isEqualTo(2L * threads * submissions * per);
            assertThat(w.layout(clicks).columns().columns())
                    .extracting(c -> c.name())
                    .containsExactly("id", "url", "x");
            assertThat(w.layout(views).columns().columns())
                    .extracting(c -> c.name())
                    .containsExactly("id", "page", "ms", "tag");
            assertThatThrownBy(w::newRows)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("name the table");
            assertThatThrownBy(() -> w.newRows(TestServer.DATABASE + ".no_such_table_here"))
                    .isInstanceOf(WriterException.class)
                    .hasMessageContaining("no_such_table_here");
        }
        long total = (long) threads * submissions * per;
        try (NativeConnection c = TestServer.connect()) {
            List<List<Object>> cs =
                    c.queryRows("SELECT id, url, x FROM " + clicks + " ORDER BY id");
            assertThat(cs).hasSize((int) total);
            for (int i = 0; i < cs.size(); i++) {
                long id = i;
                assertThat(cs.get(i)).isEqualTo(List.of(id, "/c/" + id, (id % 1000) - 500));
            }
            List<List<Object>> vs =
                    c.queryRows("SELECT id, page, ms, tag FROM " + views + " ORDER BY id");
            assertThat(vs).hasSize((int) total);
            for (int i = 0; i < vs.size(); i++) {
                long id = i;
                assertThat(vs.get(i))
                        .isEqualTo(
                                List.of(id, "p" + id, id / 4.0, id % 2 == 0 ? "t" + id : "none"));
            }
        }
    }
}
