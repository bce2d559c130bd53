package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.InsertPlan;
import dev.sluice.pipeline.sink.InsertTarget;
import dev.sluice.pipeline.sink.OutcomePolicy;
import dev.sluice.pipeline.sink.SealReason;
import dev.sluice.pipeline.sink.SealedBatch;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.Tables;
import dev.sluice.pipeline.testing.TestDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A pipeline thread's lanes: a partition's records are decoded for its table as the writer knows it
 * now; when the table changes, the batch open for its old columns is sealed ({@code table_changed})
 * and the records after it are decoded for the new ones; partitions of different tables are
 * gathered into batches of one table each.
 */
class LaneTest {
    private static final List<String> INPUTS = List.of("n", "s", "x");

    /** A table whose layout the test replaces, as the writer does when it is altered. */
    private static final class Table implements InsertTarget {
        private final String name;
        volatile Layout layout;

        Table(String name, TableSchema schema) {
            this.name = name;
            this.layout = layoutOf(schema, 0);
        }

        static Layout layoutOf(TableSchema t, long version) {
            List<String> names =
                    t.insertableColumns().stream().map(TableSchema.Column::name).toList();
            return new Layout(
                    version,
                    new TargetColumns(t, t.insertableColumns()),
                    InsertPlan.of(t, FakeInserter.server(18, 16), names, false, false),
                    List.of(OutcomePolicy.deduplicating(), OutcomePolicy.deduplicating()));
        }

        void alter(TableSchema now) {
            layout = layoutOf(now, layout.version() + 1);
        }

        @Override
        public String table() {
            return name;
        }

        @Override
        public Layout layout() {
            return layout;
        }

        @Override
        public boolean refresh(Layout seen, RuntimeException refusal) {
            return seen != layout;
        }
    }

    /** Partition {@code p}'s table is {@code db.p}. */
    private static final class ByPartition implements Lanes {
        final Map<String, Table> tables = new ConcurrentHashMap<>();
        final List<String> lanesMade = new ArrayList<>();

        @Override
        public String table(PolledRecords records) {
            return "db." + records.partition;
        }

        @Override
        public InsertTarget target(String table) {
            return tables.get(table);
        }

        @Override
        public Lane lane(InsertTarget target) {
            InsertTarget.Layout l = target.layout();
            lanesMade.add(target.table() + " v" + l.version());
            return new Lane(
                    target, l, l.columns(), new TestDecoder(l.columns(), INPUTS), List.of());
        }
    }

    private static List<String> columns(SealedBatch b) {
        Block block = b.block();
        List<String> out = new ArrayList<>();
        for (int c = 0; c < block.columnCount(); c++) {
            out.add(block.column(c).name());
        }
        return out;
    }

    @Test
    void anAlteredTableSealsTheOldColumnsBatchAndTheNextRecordsFillTheNewColumns() {
        ThreadHarness h = new ThreadHarness();
        ByPartition lanes = new ByPartition();
        Table t = new Table("db.p", Tables.table("t", "n UInt64", "s String"));
        lanes.tables.put("db.p", t);
        h.lanes = lanes;
        h.source.live("p", k -> k + ",s" + k + ",x" + k);
        h.start();
        h.source.offer("p", 3);
        h.thread.runOnce();
        assertThat(h.batches()).isEmpty(); // open, lingering

        t.alter(Tables.table("t", "n UInt64", "s String", "x String"));
        h.source.offer("p", 2);
        h.thread.runOnce();
        h.clock.advanceMillis(1_000);
        h.thread.runOnce();

        assertThat(h.batches()).hasSize(2);
        SealedBatch old = h.batches().get(0);
        SealedBatch fresh = h.batches().get(1);
        assertThat(old.reason()).isEqualTo(SealReason.TABLE_CHANGED);
        assertThat(columns(old)).containsExactly("n", "s");
        assertThat(old.rows()).isEqualTo(3);
        assertThat(columns(fresh)).containsExactly("n", "s", "x");
        assertThat(fresh.rows()).isEqualTo(2);
        assertThat(fresh.block().column(2).getString(0)).isEqualTo("x3");
        assertThat(fresh.block().column(2).getString(1)).isEqualTo("x4");
        assertThat(old.target()).isSameAs(t);
        assertThat(fresh.target()).isSameAs(t);
        assertThat(lanes.lanesMade).containsExactly("db.p v0", "db.p v1");
        // positions go on across the change: nothing read twice, nothing skipped
        assertThat(old.lastPosition()).isEqualTo(20);
        assertThat(fresh.firstPosition()).isEqualTo(30);
    }

    @Test
    void partitionsOfDifferentTablesAreGatheredIntoBatchesOfOneTableEach() {
        ThreadHarness h = new ThreadHarness();
        ByPartition lanes = new ByPartition();
        Table a = new Table("db.a", Tables.table("a", "n UInt64", "s String"));
        Table b = new Table("db.b", Tables.table("b", "n UInt64", "x String"));
        Table c = new Table("db.c", Tables.table("c", "n UInt64", "s String"));
        lanes.tables.put("db.a", a);
        lanes.tables.put("db.b", b);
        lanes.tables.put("db.c", c);
        h.lanes = lanes;
        h.source.interleaving();
        h.source.partition("a", 3, k -> k + ",a" + k + ",");
        h.source.partition("b", 2, k -> k + ",,b" + k);
        h.source.partition("c", 4, k -> k + ",c" + k + ",");
        h.maxRows = 1_000;
        h.start();
        h.turns(20); // not acknowledged yet: the batches keep their rows to look at

        assertThat(h.batches()).extracting(SealedBatch::target).containsOnly(a, b, c);
        for (SealedBatch batch : h.batches()) {
            assertThat(batch.segments())
                    .allSatisfy(
                            sg ->
                                    assertThat("db." + sg.partition())
                                            .isEqualTo(batch.target().table()));
        }
        assertThat(h.batches().stream().filter(x -> x.target() == b).findFirst().orElseThrow())
                .satisfies(
                        x -> {
                            assertThat(columns(x)).containsExactly("n", "x");
                            assertThat(x.block().column(1).getString(1)).isEqualTo("b1");
                        });
        assertThat(h.batches().stream().mapToInt(SealedBatch::rows).sum()).isEqualTo(9);
        h.runToEnd(50);
        assertThat(h.source.commits()).containsEntry("a", 30L).containsEntry("b", 20L);
    }
}
