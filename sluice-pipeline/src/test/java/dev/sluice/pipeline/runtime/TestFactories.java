package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.status.QueryLogging;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.errors.DeadLetters;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.testing.FakeInserter;
import dev.sluice.pipeline.testing.RecordingDeadLetters;
import dev.sluice.pipeline.testing.TestDecoder;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.writer.RetryDeduplication;
import dev.sluice.pipeline.writer.TargetTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** Factories with in-memory sources, the test decoder and fake replicas. */
final class TestFactories implements Factories {
    interface SourceMaker {
        Source make(int reader, LocalCheckpoints checkpoints);
    }

    final TableSchema table;
    final ServerInfo server;
    final List<String> inputs;
    final SourceMaker sources;
    final Map<String, FakeInserter> replicas = new ConcurrentHashMap<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    final RecordingDeadLetters deadLetters = new RecordingDeadLetters(events);
    final List<Source> made = new ArrayList<>();
    ClickHouseException describeFailure;

    /** What describe says of each server's query log. */
    QueryLogging logging = QueryLogging.notLogged("the server's query log was not probed");

    final Map<String, TableSchema> tableByUrl = new ConcurrentHashMap<>();

    /** The columns written, when not those the decoder feeds. */
    Function<TableSchema, TargetColumns> columns;

    TestFactories(TableSchema table, ServerInfo server, List<String> inputs, SourceMaker sources) {
        this.table = table;
        this.server = server;
        this.inputs = inputs;
        this.sources = sources;
    }

    FakeInserter replica(String url) {
        return replicas.computeIfAbsent(url, u -> new FakeInserter(server));
    }

    /** Every row accepted by any replica. */
    List<List<Object>> rows() {
        List<List<Object>> all = new ArrayList<>();
        replicas.values().forEach(r -> all.addAll(r.rows()));
        return all;
    }

    @Override
    public synchronized Source source(int reader, int readers, LocalCheckpoints checkpoints) {
        Source s = sources.make(reader, checkpoints);
        if (s instanceof dev.sluice.pipeline.testing.MemorySource m) {
            m.checkpoints(checkpoints); // it starts and commits where a file source would
        }
        made.add(s);
        return s;
    }

    @Override
    public TargetColumns targetColumns(TableSchema table) {
        return columns != null ? columns.apply(table) : Factories.super.targetColumns(table);
    }

    @Override
    public Decoder decoder(TargetColumns columns) {
        return new TestDecoder(columns, inputs);
    }

    @Override
    public List<Transform> transforms(TargetColumns columns) {
        return List.of();
    }

    @Override
    public DeadLetters deadLetters() {
        return deadLetters;
    }

    @Override
    public BlockInserter inserter(String url, SinkSpec sink) {
        FakeInserter f = replica(url);
        f.reopen();
        return f;
    }

    @Override
    public TargetTable describe(String url, SinkSpec sink) {
        if (describeFailure != null) {
            throw describeFailure;
        }
        TableSchema t = tableByUrl.getOrDefault(url, table);
        return new TargetTable(
                t, server, RetryDeduplication.of(t, server, sink.settings()), logging);
    }
}
