package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.FieldResolver;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.List;
import org.apache.avro.Schema;

/**
 * One Avro datum per record, read straight into the columns (property 6): no GenericRecord, no
 * object per record. Each record is either Confluent-framed — byte 0, a 4-byte big-endian schema
 * id, the datum — with the writer schema from a registry, or raw, with one writer schema given up
 * front.
 *
 * <p>The first record of each schema builds its {@link Plan} (a tree of readers bound to the
 * columns, {@link PlanCompiler}), which is kept per schema id: records of different schema versions
 * may follow each other in one stream. Type mapping and errors: docs/formats.md, "Avro".
 */
public final class AvroDecoder implements Decoder {
    /** Byte 0 of a Confluent-framed record. */
    static final int MAGIC = 0;

    static final int HEADER = 5;

    /** Plans kept per decoder; past this many schema ids the cache starts over. */
    static final int MAX_PLANS = 1024;

    private final int[] fedIndexes;
    private final PlanCompiler compiler;
    private final WriterSchemas registry; // null for raw records
    private final Plan raw; // the plan of raw records, else null
    private final AvroInput in = new AvroInput();
    private final BlockColumns blockColumns = new BlockColumns();
    private final PlanCache plans = new PlanCache();

    private AvroDecoder(
            List<ColumnSlot> fed, FieldResolver resolver, WriterSchemas registry, Schema raw) {
        this.fedIndexes = fed.stream().mapToInt(s -> s.index).toArray();
        this.compiler = new PlanCompiler(fed, resolver);
        this.registry = registry;
        this.raw = raw == null ? null : compiler.compile(raw, "the schema file");
    }

    /** Confluent-framed records, their schemas from {@code registry}. */
    public static AvroDecoder confluent(
            List<ColumnSlot> fed, FieldResolver resolver, WriterSchemas registry) {
        return new AvroDecoder(fed, resolver, registry, null);
    }

    /** Raw records, every one written with {@code writer}. */
    public static AvroDecoder raw(List<ColumnSlot> fed, FieldResolver resolver, Schema writer) {
        return new AvroDecoder(fed, resolver, null, writer);
    }

    @Override
    public int[] fedColumns() {
        return fedIndexes.clone();
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        byte[] d = batch.data;
        int start = batch.start[index];
        int end = batch.end[index];
        Plan plan;
        if (raw != null) {
            plan = raw;
        } else {
            if (end - start < HEADER) {
                throw new RecordException(
                        null,
                        "a record of "
                                + (end - start)
                                + " bytes is too short for the Confluent header (magic byte 0"
                                + " and a 4-byte schema id)");
            }
            if (d[start] != MAGIC) {
                throw new RecordException(
                        null,
                        String.format(
                                "not Confluent-framed: the first byte is 0x%02x, not the magic"
                                        + " byte 0",
                                d[start] & 0xFF));
            }
            int id =
                    (d[start + 1] & 0xFF) << 24
                            | (d[start + 2] & 0xFF) << 16
                            | (d[start + 3] & 0xFF) << 8
                            | (d[start + 4] & 0xFF);
            plan = planFor(id);
            start += HEADER;
        }
        if (plan.error() != null) {
            throw plan.error();
        }
        in.reset(d, start, end);
        Column[] cols = blockColumns.of(row.block());
        for (Step s : plan.steps()) {
            s.run(in, cols, row);
        }
        if (!in.atEnd()) {
            throw new RecordException(
                    null,
                    "the datum ends at byte "
                            + in.offset()
                            + " of "
                            + in.length()
                            + ": the record was not written with "
                            + plan.describe());
        }
        for (ColumnSlot s : plan.absent()) {
            cols[s.index].appendDefault();
            row.absent(s.index);
        }
    }

    /**
     * Why records written with {@code writer} cannot become rows of this decoder's columns, or null
     * when they can (values may still be refused one by one): for {@code sluice check}.
     */
    public String problemWith(Schema writer, String describe) {
        RecordException e = compiler.compile(writer, describe).error();
        return e == null ? null : e.getMessage();
    }

    private Plan planFor(int id) throws RecordException {
        Plan p = plans.get(id);
        if (p == null) {
            Schema writer = registry.schema(id);
            p = compiler.compile(writer, "schema id " + id);
            if (plans.size() >= MAX_PLANS) {
                plans.clear();
            }
            plans.put(id, p);
        }
        return p;
    }
}
