package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.Deduplication;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.sink.OutcomePolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.MemorySource;
import dev.sluice.pipeline.testing.Tables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupTest {
    private static final ServerInfo MODERN = FakeInserter.server(24, 8);

    private static TestFactories factories(
            TableSchema table, ServerInfo server, List<String> inputs) {
        return new TestFactories(
                table, server, inputs, (r, checkpoints) -> new MemorySource("mem"));
    }

    @Test
    void columnsNobodyFeedsAreLeftOutSoTheServerFillsThem() throws Exception {
        TableSchema t =
                Tables.table("t", "a UInt64", "b String DEFAULT 'x'", "c UInt8", "d String");
        Startup.Result r =
                Startup.run(new Specs.Builder().build(), factories(t, MODERN, List.of("d", "a")));
        assertThat(r.columns().columns())
                .extracting(TableSchema.Column::name)
                .containsExactly("a", "d");
    }

    @Test
    void aDecoderThatFeedsNothingIsRefused() {
        TableSchema t = Tables.table("t", "a UInt64");
        assertThatThrownBy(
                        () ->
                                Startup.run(
                                        new Specs.Builder().build(),
                                        factories(t, MODERN, List.of("zzz"))))
                .hasMessageContaining("no column of test.t is fed");
    }

    @Test
    void shardsMustHaveTheSameTable() {
        TestFactories f = factories(Tables.table("t", "a UInt64"), MODERN, List.of("a"));
        f.tableByUrl.put("clickhouse://b:9000/db", Tables.table("t", "a UInt32"));
        PipelineSpec spec =
                new Specs.Builder()
                        .shards(
                                List.of(
                                        new ShardSpec(List.of("clickhouse://a:9000/db"), 1),
                                        new ShardSpec(List.of("clickhouse://b:9000/db"), 1)))
                        .build();
        assertThatThrownBy(() -> Startup.run(spec, f))
                .hasMessageContaining("shard 0 and shard 1")
                .hasMessageContaining("a UInt64 on one and a UInt32 on the other");
    }

    @Test
    void saysPerTableWhatHoldsAndWarnsOnlyWhenTheTargetCannotDeduplicate() throws Exception {
        TableSchema plain = Tables.table("t", "a UInt64");
        TableSchema replicated = Tables.withEngine("t", "ReplicatedMergeTree", "a UInt64");
        PipelineSpec spec = new Specs.Builder().build();

        // Replicated tables drop identical blocks on every version, 18.16 included.
        for (ServerInfo server : List.of(MODERN, FakeInserter.server(18, 16))) {
            Startup.Result r = Startup.run(spec, factories(replicated, server, List.of("a")));
            assertThat(r.warnings()).isEmpty();
            assertThat(r.notes())
                    .anyMatch(
                            n ->
                                    n.startsWith("test.t (ReplicatedMergeTree) drops")
                                            && n.contains("replicated_deduplication_window")
                                            && n.contains("written once"));
            assertThat(r.outcomes())
                    .singleElement()
                    .extracting(OutcomePolicy::deduplicates)
                    .isEqualTo(true);
            assertThat(r.outcomes().get(0).onUnknown()).isEqualTo(OnUnknownOutcome.RESEND);
        }
        assertThat(Startup.run(spec, factories(replicated, MODERN, List.of("a"))).notes())
                .anyMatch(n -> n.contains("insert_deduplication_token"));
        assertThat(
                        Startup.run(
                                        spec,
                                        factories(
                                                replicated,
                                                FakeInserter.server(18, 16),
                                                List.of("a")))
                                .notes())
                .anyMatch(n -> n.contains("drops a block identical to one of"));

        TableSchema windowed =
                new TableSchema(
                        "test",
                        "t",
                        plain.columns(),
                        "MergeTree",
                        "",
                        "",
                        "MergeTree ORDER BY tuple() SETTINGS non_replicated_deduplication_window"
                                + " = 100",
                        new Deduplication(Deduplication.Kind.NON_REPLICATED_WINDOW, 100));
        assertThat(Startup.run(spec, factories(windowed, MODERN, List.of("a"))).warnings())
                .isEmpty();

        Startup.Result r = Startup.run(spec, factories(plain, MODERN, List.of("a")));
        assertThat(r.warnings())
                .singleElement()
                .asString()
                .contains("test.t (MergeTree) has non_replicated_deduplication_window = 0")
                .contains("on_unknown_outcome: fail");
        assertThat(r.outcomes().get(0).deduplicates()).isFalse();
        assertThat(r.outcomes().get(0).onUnknown()).isEqualTo(OnUnknownOutcome.FAIL);

        TableSchema on1816 =
                new TableSchema(
                        "test",
                        "t",
                        plain.columns(),
                        "MergeTree",
                        "",
                        "",
                        "MergeTree ORDER BY tuple()",
                        new Deduplication(Deduplication.Kind.NONE, -1));
        assertThat(
                        Startup.run(
                                        spec,
                                        factories(
                                                on1816, FakeInserter.server(18, 16), List.of("a")))
                                .warnings())
                .singleElement()
                .asString()
                .contains("cannot deduplicate on ClickHouse 18.16.1")
                .contains("only Replicated tables deduplicate there");
    }

    @Test
    void insertDeduplicateZeroTurnsDeduplicationOff() throws Exception {
        TableSchema replicated = Tables.withEngine("t", "ReplicatedMergeTree", "a UInt64");
        Startup.Result r =
                Startup.run(
                        new Specs.Builder().settings(Map.of("insert_deduplicate", "0")).build(),
                        factories(replicated, MODERN, List.of("a")));
        assertThat(r.warnings())
                .singleElement()
                .asString()
                .contains(
                        "would drop repeated blocks, but insert_deduplicate=0 is among the"
                                + " settings");
        assertThat(r.outcomes().get(0).deduplicates()).isFalse();
    }

    @Test
    void theWarningSaysHowAnInterruptedInsertIsHandled() throws Exception {
        TableSchema plain = Tables.table("t", "a UInt64");
        TestFactories f = factories(plain, FakeInserter.server(18, 16), List.of("a"));
        f.logging =
                new QueryLogging(
                        QueryLogging.Status.LOGGED,
                        true,
                        true,
                        QueryLogging.ProfileEvents.ARRAYS,
                        "the server logs sluice's queries in system.query_log");
        Startup.Result r =
                Startup.run(
                        new Specs.Builder().onUnknownOutcome(OnUnknownOutcome.RESEND).build(), f);
        assertThat(r.warnings())
                .singleElement()
                .asString()
                .contains("looked up in system.processes and system.query_log for up to 5 min")
                .contains("counted as possibly written twice (on_unknown_outcome: resend)");
        assertThat(r.outcomes().get(0).onUnknown()).isEqualTo(OnUnknownOutcome.RESEND);
        assertThat(r.outcomes().get(0).insertSettings()).containsEntry("log_queries", "1");

        f.logging = QueryLogging.notLogged("the server has no system.query_log");
        assertThat(Startup.run(new Specs.Builder().build(), f).warnings())
                .singleElement()
                .asString()
                .contains(
                        "the server has no system.query_log, so an INSERT interrupted after its"
                                + " data was sent cannot be looked up")
                .contains("on_unknown_outcome: fail");
    }

    @Test
    void shardsThatDifferAreDescribedOneByOne() throws Exception {
        TestFactories f =
                factories(
                        Tables.withEngine("t", "ReplicatedMergeTree", "a UInt64"),
                        MODERN,
                        List.of("a"));
        f.tableByUrl.put("clickhouse://b:9000/db", Tables.table("t", "a UInt64"));
        PipelineSpec spec =
                new Specs.Builder()
                        .shards(
                                List.of(
                                        new ShardSpec(List.of("clickhouse://a:9000/db"), 1),
                                        new ShardSpec(List.of("clickhouse://b:9000/db"), 1)))
                        .build();
        Startup.Result r = Startup.run(spec, f);
        assertThat(r.notes()).anyMatch(n -> n.startsWith("shard 0: test.t (ReplicatedMergeTree)"));
        assertThat(r.warnings())
                .singleElement()
                .asString()
                .startsWith("shard 1: test.t (MergeTree)");
        assertThat(r.outcomes())
                .extracting(OutcomePolicy::deduplicates)
                .containsExactly(true, false);
    }

    @Test
    void theBudgetWarningComesWithTheOthers() throws Exception {
        PipelineSpec spec = new Specs.Builder().budget(1 << 20, 0.8, 0.5).build();
        assertThat(
                        Startup.run(
                                        spec,
                                        factories(
                                                Tables.withEngine(
                                                        "t", "ReplicatedMergeTree", "a UInt64"),
                                                MODERN,
                                                List.of("a")))
                                .warnings())
                .singleElement()
                .asString()
                .contains("below the sizing rule");
    }

    @Test
    void settingsTheRuntimeOwnsAreRefused() {
        TestFactories f = factories(Tables.table("t", "a UInt64"), MODERN, List.of("a"));
        assertThatThrownBy(
                        () ->
                                Startup.run(
                                        new Specs.Builder()
                                                .settings(Map.of("insert_deduplication_token", "x"))
                                                .build(),
                                        f))
                .hasMessageContaining("set by sluice per batch");
    }

    @Test
    void aMaterializedColumnAmongTheColumnsWrittenIsRefusedByName() {
        TableSchema t = Tables.table("t", "a UInt64", "m String MATERIALIZED toString(a)");
        TestFactories f = factories(t, MODERN, List.of("a", "m"));
        f.columns = table -> new TargetColumns(table, table.columns());
        assertThatThrownBy(() -> Startup.run(new Specs.Builder().build(), f))
                .isInstanceOf(PipelineException.class)
                .hasMessageContaining("m (MATERIALIZED toString(a))");
    }

    @Test
    void theInsertPlanIsReportedAndAKeyPresortCannotUseIsWarnedAboutOnce() throws Exception {
        TableSchema t =
                Tables.keyed(
                        "t",
                        "rand()",
                        "",
                        "a UInt64",
                        "b String DEFAULT 'x'",
                        "c String DEFAULT reverse(d)",
                        "d String");
        Startup.Result r =
                Startup.run(
                        new Specs.Builder().presort(true).partitionSplit(true).build(),
                        factories(t, FakeInserter.server(18, 16), List.of("a", "b", "c", "d")));
        assertThat(r.notes())
                .anyMatch(n -> n.contains("computed by sluice: b DEFAULT 'x'"))
                .anyMatch(n -> n.contains("the server computes the DEFAULT: c DEFAULT reverse(d)"));
        assertThat(r.warnings())
                .anyMatch(w -> w.startsWith("presort is on, but batches go unsorted"))
                .anyMatch(w -> w.contains("partition_split is on, but batches go unsplit"));
        assertThat(r.plan().presort()).isEqualTo(PresortMode.OFF);
        assertThat(r.plan().partitionSplit()).isFalse();
    }
}
