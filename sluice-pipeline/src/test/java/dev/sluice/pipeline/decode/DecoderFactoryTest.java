package dev.sluice.pipeline.decode;

import static dev.sluice.pipeline.decode.DecodeFixture.spec;
import static dev.sluice.pipeline.decode.DecodeFixture.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which columns a pipeline writes, and which of them its decoder feeds. */
class DecoderFactoryTest {
    private static final TableSchema TABLE =
            table(
                    "id UInt64, name String, d Date DEFAULT, m UInt8 MATERIALIZED, a UInt8 ALIAS,"
                            + " at DateTime DEFAULT, src String");

    private static List<String> names(TargetColumns t) {
        return t.columns().stream().map(TableSchema.Column::name).toList();
    }

    private static List<String> targets(DecodeSpec spec, List<TransformSpec> transforms) {
        return names(DecoderFactory.targetColumns(spec, transforms, TABLE));
    }

    @Test
    void jsonWritesEveryInsertableColumnOrTheListedOnes() {
        assertThat(targets(spec(Format.JSON), List.of()))
                .containsExactly("id", "name", "d", "at", "src");
        assertThat(
                        targets(
                                spec(Format.JSON, List.of("src", "id"), false, Map.of(), false),
                                List.of()))
                .as("in table order")
                .containsExactly("id", "src");
    }

    @Test
    void rawWritesTheWholeRecordIntoItsOneColumn() throws Exception {
        DecodeSpec raw = spec(Format.RAW, List.of("name"), false, Map.of(), false);
        TargetColumns target = DecoderFactory.targetColumns(raw, List.of(), TABLE);
        assertThat(names(target)).containsExactly("name");
        Decoder d = DecoderFactory.create(raw, target);
        dev.sluice.pipeline.source.PolledRecords rb =
                new dev.sluice.pipeline.source.PolledRecords();
        byte[] text =
                "not json, {\"at all\"}\t\u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(text, 0, rb.data, 0, text.length);
        rb.add(0, text.length, 0, 1);
        dev.sluice.pipeline.sink.BatchBuilder row =
                new dev.sluice.pipeline.sink.BatchBuilder(
                        "p",
                        new dev.sluice.pipeline.sink.PooledBlock(
                                target.newBlock(),
                                new dev.sluice.clickhouse.defaults.AbsentRows(target.size())));
        row.beginRow();
        d.decode(rb, 0, row);
        row.commitRow(0);
        assertThat(row.block().column(0).getString(0)).isEqualTo("not json, {\"at all\"}\t\u00e9");
        DecodeSpec nowhere = spec(Format.RAW, List.of("m"), false, Map.of(), false);
        assertThatThrownBy(() -> DecoderFactory.targetColumns(nowhere, List.of(), TABLE))
                .hasMessageContaining("column m is MATERIALIZED");
    }

    @Test
    void delimitedFormatsWriteTheListedColumnsAfterRenames() {
        List<TransformSpec> renames =
                List.of(
                        new TransformSpec("rename", Map.of("from", "ident", "to", "id")),
                        new TransformSpec("drop", Map.of("field", "junk")));
        DecodeSpec csv = spec(Format.CSV, List.of("name", "junk", "ident"), false, Map.of(), false);
        assertThat(targets(csv, renames)).containsExactly("id", "name");
        assertThat(targets(spec(Format.TSV), List.of()))
                .containsExactly("id", "name", "d", "at", "src");
        DecodeSpec unknown = spec(Format.CSV, List.of("name", "nope"), false, Map.of(), false);
        assertThatThrownBy(() -> targets(unknown, List.of()))
                .hasMessageContaining("has no column nope");
        DecodeSpec lenient = spec(Format.CSV, List.of("name", "nope", "m"), false, Map.of(), true);
        assertThat(targets(lenient, List.of())).containsExactly("name");
        DecodeSpec materialized = spec(Format.CSV, List.of("m"), false, Map.of(), false);
        assertThatThrownBy(() -> targets(materialized, List.of()))
                .hasMessageContaining("column m is MATERIALIZED and cannot be inserted");
    }

    @Test
    void aJsonFieldMappedToAColumnTheServerComputesIsRefusedByName() {
        DecodeSpec json = spec(Format.JSON, List.of(), false, Map.of("m", "/x"), false);
        TargetColumns target = DecoderFactory.targetColumns(json, List.of(), TABLE);
        assertThatThrownBy(() -> DecoderFactory.create(json, target))
                .hasMessageContaining("fields: column m is MATERIALIZED");
    }

    @Test
    void computedColumnsAreWrittenButNotFed() {
        List<TransformSpec> t =
                List.of(
                        new TransformSpec("computed", Map.of("column", "at", "expr", "now()")),
                        new TransformSpec("constant", Map.of("column", "src", "value", "api")));
        DecodeSpec csv = spec(Format.CSV, List.of("id"), false, Map.of(), false);
        TargetColumns target = DecoderFactory.targetColumns(csv, t, TABLE);
        assertThat(names(target)).containsExactly("id", "at", "src");
        assertThat(DecoderFactory.create(csv, t, target).fedColumns()).containsExactly(0);
        assertThat(
                        DecoderFactory.create(
                                        spec(Format.JSON),
                                        t,
                                        DecoderFactory.targetColumns(spec(Format.JSON), t, TABLE))
                                .fedColumns())
                .containsExactly(0, 1, 2);
        assertThatThrownBy(
                        () ->
                                targets(
                                        spec(Format.JSON),
                                        List.of(
                                                new TransformSpec(
                                                        "constant",
                                                        Map.of("column", "m", "value", 1)))))
                .hasMessageContaining("computes itself");
        assertThatThrownBy(
                        () ->
                                targets(
                                        spec(Format.JSON),
                                        List.of(
                                                new TransformSpec(
                                                        "constant",
                                                        Map.of("column", "zz", "value", 1)))))
                .hasMessageContaining("does not have");
        assertThatThrownBy(
                        () -> targets(spec(Format.JSON, List.of("src"), false, Map.of(), false), t))
                .hasMessageContaining("computed by a transform");
    }

    @Test
    void generatorWritesTheEventsColumnsTheTableHas() {
        TableSchema events = table("ts DateTime, kind String, id UInt64, other UInt8 DEFAULT");
        assertThat(names(DecoderFactory.targetColumns(spec(Format.GENERATOR), List.of(), events)))
                .containsExactly("ts", "kind", "id");
    }

    @Test
    void unsupportedColumnTypesAreNamed() {
        TableSchema t =
                new TableSchema(
                        "db",
                        "t",
                        List.of(
                                new TableSchema.Column(
                                        "agg",
                                        "AggregateFunction(sum, UInt64)",
                                        null,
                                        TableSchema.DefaultKind.NONE,
                                        "")),
                        "Memory",
                        "",
                        "");
        TargetColumns target = DecoderFactory.targetColumns(spec(Format.JSON), List.of(), t);
        assertThatThrownBy(() -> DecoderFactory.create(spec(Format.JSON), target))
                .hasMessageContaining("column agg has a type Sluice cannot write");
    }
}
