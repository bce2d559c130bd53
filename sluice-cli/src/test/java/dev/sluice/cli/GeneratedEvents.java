package dev.sluice.cli;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.pipeline.config.ConfigLoader;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The generator's events as a configuration makes them, for checking a table value by value: row
 * {@code n} decoded by the generator's own decoder (the rows depend on the seed and the row number
 * only) into {@code ts, tenant, kind, id, payload}, read back as the server returns them.
 */
final class GeneratedEvents {
    private static final List<String> COLUMNS = List.of("ts", "tenant", "kind", "id", "payload");
    private static final List<String> TYPES =
            List.of("DateTime", "UInt32", "String", "UInt64", "String");

    private final Decoder decoder;
    private final Block block;
    private final PolledRecords records = new PolledRecords();

    /** The events of the generator source of pipeline configuration {@code yaml}. */
    GeneratedEvents(String yaml) {
        PipelineSpec spec = new ConfigLoader(name -> null, 2).parse(yaml, "pipeline.yaml");
        List<TableSchema.Column> columns = new ArrayList<>();
        for (int i = 0; i < COLUMNS.size(); i++) {
            columns.add(
                    new TableSchema.Column(
                            COLUMNS.get(i),
                            TYPES.get(i),
                            TypeParser.parse(TYPES.get(i)),
                            TableSchema.DefaultKind.NONE,
                            ""));
        }
        TableSchema table = new TableSchema("db", "events", columns, "MergeTree", "id", "");
        TargetColumns target = new TargetColumns(table, columns);
        this.decoder = DecoderFactory.create(spec, target);
        this.block = target.newBlock();
        records.count = 1;
    }

    /** Event {@code n}: {@code [ts (epoch seconds), tenant, kind, id, payload]}. */
    List<Object> event(long n) {
        block.reset();
        records.position[0] = n;
        RowTarget row =
                new RowTarget() {
                    @Override
                    public Block block() {
                        return block;
                    }

                    @Override
                    public int row() {
                        return 0;
                    }

                    @Override
                    public void absent(int column) {}
                };
        try {
            decoder.decode(records, 0, row);
        } catch (RecordException e) {
            throw new IllegalStateException(e);
        }
        List<Object> out = new ArrayList<>();
        for (int c = 0; c < COLUMNS.size(); c++) {
            out.add(block.column(c).getObject(0));
        }
        return out;
    }
}
