package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.transform.ExpressionStage;
import dev.sluice.pipeline.transform.Transform;
import dev.sluice.pipeline.transform.TransformChain;
import dev.sluice.pipeline.transform.Transforms;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/** Tables, batches and a row target for decoder and transform tests. */
public final class DecodeFixture {
    private DecodeFixture() {}

    /** A table from {@code "a UInt8, b Array(String)"}; {@code m Int32 MATERIALIZED} works too. */
    public static TableSchema table(String columns) {
        List<TableSchema.Column> cols = new ArrayList<>();
        for (String def : splitTopLevel(columns)) {
            def = def.strip();
            int sp = def.indexOf(' ');
            String name = def.substring(0, sp);
            String type = def.substring(sp + 1).strip();
            TableSchema.DefaultKind kind = TableSchema.DefaultKind.NONE;
            for (TableSchema.DefaultKind k : TableSchema.DefaultKind.values()) {
                if (k != TableSchema.DefaultKind.NONE && type.endsWith(" " + k.name())) {
                    kind = k;
                    type = type.substring(0, type.length() - k.name().length() - 1).strip();
                }
            }
            cols.add(new TableSchema.Column(name, type, TypeParser.parse(type), kind, ""));
        }
        return new TableSchema("db", "t", cols, "Memory", "", "");
    }

    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' && (i == 0 || s.charAt(i - 1) != '\\')) {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    public static DecodeSpec spec(Format format) {
        return new DecodeSpec(format, List.of(), false, Map.of(), false, ',');
    }

    public static DecodeSpec spec(
            Format format,
            List<String> columns,
            boolean header,
            Map<String, String> fields,
            boolean ignoreUnknown) {
        return new DecodeSpec(format, columns, header, fields, ignoreUnknown, ',');
    }

    /** Records as given (UTF-8), one partition, positions 0, 1, 2... */
    public static PolledRecords batch(String... records) {
        byte[][] b = new byte[records.length][];
        for (int i = 0; i < records.length; i++) {
            b[i] = records[i].getBytes(StandardCharsets.UTF_8);
        }
        return batch(b);
    }

    public static PolledRecords batch(byte[]... records) {
        PolledRecords batch = new PolledRecords();
        batch.source = "test";
        batch.partition = "p";
        int at = 0;
        for (int i = 0; i < records.length; i++) {
            batch.ensureDataCapacity(at + records[i].length + 1);
            System.arraycopy(records[i], 0, batch.data, at, records[i].length);
            batch.add(at, at + records[i].length, i, i + 1);
            at += records[i].length + 1; // a gap, as a newline would leave
        }
        return batch;
    }

    /** A row target over one block that remembers which values were absent. */
    public static final class Rows implements RowTarget {
        public final Block block;
        public final List<BitSet> absent = new ArrayList<>();
        public final List<String> errors = new ArrayList<>();
        public int dropped;
        private int row;

        public Rows(TargetColumns target) {
            this.block = target.newBlock();
        }

        @Override
        public Block block() {
            return block;
        }

        @Override
        public int row() {
            return row;
        }

        @Override
        public void absent(int column) {
            absent.get(absent.size() - 1).set(column); // the row being built
        }

        /** Decodes (and transforms) every record; rejected ones are rolled back and noted. */
        public Rows decode(Decoder decoder, List<Transform> chain, PolledRecords batch) {
            for (int i = 0; i < batch.count; i++) {
                row = block.rows();
                absent.add(new BitSet());
                try {
                    decoder.decode(batch, i, this);
                    boolean keep = true;
                    for (Transform t : chain) {
                        if (!t.apply(this, batch, i)) {
                            keep = false;
                            break;
                        }
                    }
                    if (!keep) {
                        dropped++;
                        block.truncate(row);
                        absent.remove(absent.size() - 1);
                    } else {
                        block.rows(); // all columns must agree
                    }
                } catch (RecordException e) {
                    errors.add(e.getMessage());
                    block.truncate(row);
                    absent.remove(absent.size() - 1);
                }
            }
            return this;
        }

        public Rows decode(Decoder decoder, PolledRecords batch) {
            return decode(decoder, List.of(), batch);
        }

        /**
         * Decodes every record as the runtime does with expression transforms at the end of the
         * chain: the row-wise part per record, then the column-wise stage over all the rows at once
         * ({@link TransformChain}); {@code now()} is {@code nowSeconds}.
         */
        public Rows decodeColumnar(
                Decoder decoder, List<Transform> transforms, PolledRecords batch, long nowSeconds) {
            TransformChain chain = TransformChain.of(transforms);
            int[] records = new int[batch.count];
            List<BitSet> marks = new ArrayList<>();
            int staged = 0;
            for (int i = 0; i < batch.count; i++) {
                row = staged; // the stage's columns are still empty: the block has no row count
                absent.add(new BitSet());
                try {
                    decoder.decode(batch, i, this);
                    if (chain.applyRow(this, batch, i, nowSeconds)) {
                        records[staged++] = i;
                        marks.add(absent.get(absent.size() - 1));
                    } else {
                        dropped++;
                        block.truncate(row);
                    }
                } catch (RecordException e) {
                    errors.add(e.getMessage());
                    block.truncate(row);
                }
                absent.remove(absent.size() - 1);
            }
            ExpressionStage stage = chain.stage();
            if (stage == null) {
                absent.addAll(marks);
                return this;
            }
            ExpressionStage.Outcome out = stage.run(block, 0, staged, batch, records, nowSeconds);
            dropped += out.filtered();
            for (int r = 0; r < out.rejected(); r++) {
                errors.add(out.error(r).getMessage());
            }
            for (int i = 0; i < out.kept(); i++) {
                absent.add(marks.get(out.keptStaged(i)));
            }
            block.rows(); // all columns must agree
            return this;
        }

        public Object value(String column, int row) {
            return block.column(column).getObject(row);
        }

        public boolean isAbsent(String column, int row) {
            return absent.get(row).get(block.indexOf(column));
        }
    }

    /** Decodes records of {@code format} into table {@code columns} and returns the rows. */
    public static Rows decode(String columns, DecodeSpec spec, String... records) {
        return decode(table(columns), spec, List.of(), records);
    }

    public static Rows decode(
            TableSchema table, DecodeSpec spec, List<TransformSpec> transforms, String... records) {
        TargetColumns target = DecoderFactory.targetColumns(spec, transforms, table);
        Decoder decoder = DecoderFactory.create(spec, transforms, target);
        PolledRecords batch = batch(records);
        Rows rows = new Rows(target);
        if (decoder.expectsHeader()) {
            try {
                decoder.header(batch, 0);
            } catch (RecordException e) {
                rows.errors.add(e.getMessage());
                return rows;
            }
            PolledRecords rest = batch(java.util.Arrays.copyOfRange(records, 1, records.length));
            return rows.decode(decoder, Transforms.create(transforms, target), rest);
        }
        return rows.decode(decoder, Transforms.create(transforms, target), batch);
    }
}
