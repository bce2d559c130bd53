package dev.sluice.pipeline.decode;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.avro.AvroDecoder;
import dev.sluice.pipeline.decode.avro.AvroSchemaFile;
import dev.sluice.pipeline.decode.avro.WriterSchemas;
import dev.sluice.pipeline.decode.avro.registry.RegistrySchemas;
import dev.sluice.pipeline.decode.convert.Converters;
import dev.sluice.pipeline.decode.csv.CsvDecoder;
import dev.sluice.pipeline.decode.generator.GeneratorDecoder;
import dev.sluice.pipeline.decode.json.JsonDecoder;
import dev.sluice.pipeline.decode.json.JsonPath;
import dev.sluice.pipeline.decode.raw.RawDecoder;
import dev.sluice.pipeline.decode.tsv.TsvDecoder;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.transform.MetadataColumns;
import dev.sluice.pipeline.transform.Transforms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the decoder for a pipeline, and decides which columns the pipeline writes.
 *
 * <p>The columns written ({@link #targetColumns}) are those the input can feed plus those
 * transforms compute; every other column is left out of the INSERT, so the server fills its
 * DEFAULT:
 *
 * <ul>
 *   <li>JSON and Avro: every insertable column (a key may be missing from any record, a field from
 *       any writer schema), or only those in {@code columns} when given;
 *   <li>CSV/TSV: the columns named by {@code columns} (after renames) when given; otherwise every
 *       insertable column — read in table order without a header, or by the header's names;
 *   <li>the generator: the events columns the table has.
 * </ul>
 *
 * <p>The decoder feeds every written column that no transform computes. The rename and drop
 * transforms act here, on the field-to-column mapping (see {@link FieldRules}).
 */
public final class DecoderFactory {
    private DecoderFactory() {}

    public static TargetColumns targetColumns(PipelineSpec spec, TableSchema table) {
        return targetColumns(
                spec.decode(), spec.transforms(), metadataColumns(spec, table).keySet(), table);
    }

    /**
     * The columns a message's metadata feeds (column → field, {@link MetadataColumns}): for message
     * sources only (Kafka); a file's column named {@code _key} is an ordinary field.
     */
    public static Map<String, String> metadataColumns(PipelineSpec spec, TableSchema table) {
        if (!(spec.source() instanceof PipelineSpec.KafkaSource)) {
            return Map.of();
        }
        FieldRules rules = rules(spec.decode(), spec.transforms());
        Map<String, String> renames = new HashMap<>(rules.renames());
        spec.decode()
                .fields()
                .forEach(
                        (column, path) -> {
                            if (MetadataColumns.isField(path)) {
                                renames.put(path, column);
                            }
                        });
        return MetadataColumns.columns(table, new FieldRules(renames, rules.drops()));
    }

    /**
     * @throws IllegalArgumentException when the configuration names columns the table cannot take
     */
    public static TargetColumns targetColumns(
            DecodeSpec decode, List<TransformSpec> transforms, TableSchema table) {
        return targetColumns(decode, transforms, Set.of(), table);
    }

    private static TargetColumns targetColumns(
            DecodeSpec decode,
            List<TransformSpec> transforms,
            Set<String> metadata,
            TableSchema table) {
        Set<String> produced = new LinkedHashSet<>(metadata);
        produced.addAll(Transforms.producedColumns(transforms));
        FieldRules rules = rules(decode, transforms);
        Set<String> names = new LinkedHashSet<>();
        if (decode.format() == Format.GENERATOR) {
            for (String c : GeneratorDecoder.COLUMNS) {
                TableSchema.Column col = table.column(c);
                if (col != null && col.insertable() && !produced.contains(c)) {
                    names.add(c);
                }
            }
        } else if (!decode.columns().isEmpty()) {
            boolean delimited = decode.format() == Format.CSV || decode.format() == Format.TSV;
            for (String field : decode.columns()) {
                if (delimited && rules.drops().contains(field)) {
                    continue;
                }
                String column = delimited ? rules.columnFor(field) : field;
                TableSchema.Column col = table.column(column);
                if (col == null || !col.insertable() || produced.contains(column)) {
                    if (decode.ignoreUnknown()) {
                        continue;
                    }
                    throw new IllegalArgumentException(
                            "columns: "
                                    + new FieldResolver(table, List.of(), rules, produced, false)
                                            .whyUnknown(field));
                }
                names.add(column);
            }
        } else {
            for (TableSchema.Column c : table.insertableColumns()) {
                if (!produced.contains(c.name())) {
                    names.add(c.name());
                }
            }
        }
        for (String p : produced) {
            TableSchema.Column col = table.column(p);
            if (col == null || !col.insertable()) {
                throw new IllegalArgumentException(
                        "a transform computes column "
                                + p
                                + ", which table "
                                + table.qualifiedName()
                                + (col == null ? " does not have" : " computes itself"));
            }
            names.add(p);
        }
        List<TableSchema.Column> columns = new ArrayList<>();
        for (TableSchema.Column c : table.columns()) {
            if (names.contains(c.name())) {
                columns.add(c);
            }
        }
        return new TargetColumns(table, columns);
    }

    /** The decoder of {@code spec}, for the columns {@link #targetColumns} chose. */
    public static Decoder create(PipelineSpec spec, TargetColumns target) {
        return create(spec, target, null);
    }

    /**
     * @param schemas the pipeline's shared source of Avro writer schemas, or null (see {@link
     *     #create(DecodeSpec, List, Set, TargetColumns, WriterSchemas)})
     */
    public static Decoder create(PipelineSpec spec, TargetColumns target, WriterSchemas schemas) {
        if (spec.decode().format() == Format.GENERATOR) {
            if (!(spec.source() instanceof GeneratorSource g)) {
                throw new IllegalArgumentException(
                        "the generator format needs the generator source");
            }
            return new GeneratorDecoder(
                    g, fed(target, Transforms.producedColumns(spec.transforms())));
        }
        return create(
                spec.decode(),
                spec.transforms(),
                metadataColumns(spec, target.table()).keySet(),
                target,
                schemas);
    }

    public static Decoder create(DecodeSpec decode, TargetColumns target) {
        return create(decode, List.of(), target);
    }

    public static Decoder create(
            DecodeSpec decode, List<TransformSpec> transforms, TargetColumns target) {
        return create(decode, transforms, Set.of(), target, null);
    }

    /**
     * @param schemas where Confluent-framed Avro records' writer schemas come from, shared by the
     *     pipeline's decoders; null for a registry client of this decoder's own (Avro only)
     */
    public static Decoder create(
            DecodeSpec decode,
            List<TransformSpec> transforms,
            TargetColumns target,
            WriterSchemas schemas) {
        return create(decode, transforms, Set.of(), target, schemas);
    }

    /**
     * @param metadata columns a message's metadata feeds ({@link MetadataColumns}): not the
     *     decoder's
     */
    public static Decoder create(
            DecodeSpec decode,
            List<TransformSpec> transforms,
            Set<String> metadata,
            TargetColumns target,
            WriterSchemas schemas) {
        Set<String> produced = new LinkedHashSet<>(metadata);
        produced.addAll(Transforms.producedColumns(transforms));
        FieldRules rules = rules(decode, transforms);
        List<ColumnSlot> fed = fed(target, produced);
        FieldResolver resolver =
                new FieldResolver(target.table(), fed, rules, produced, decode.ignoreUnknown());
        List<String> names = decode.columns().isEmpty() ? null : decode.columns();
        return switch (decode.format()) {
            case JSON ->
                    new JsonDecoder(
                            fed,
                            jsonPaths(decode, rules, fed, target),
                            target.size(),
                            resolver,
                            decode.jsonFastPath());
            case CSV ->
                    new CsvDecoder(
                            fed,
                            resolver,
                            decode.header(),
                            names,
                            decode.delimiter() == 0 ? ',' : decode.delimiter());
            case TSV -> new TsvDecoder(fed, resolver, decode.header(), names);
            case AVRO ->
                    decode.avro().framing() == AvroFraming.RAW
                            ? AvroDecoder.raw(
                                    fed, resolver, AvroSchemaFile.load(decode.avro().schemaFile()))
                            : AvroDecoder.confluent(
                                    fed,
                                    resolver,
                                    schemas != null
                                            ? schemas
                                            : RegistrySchemas.open(decode.avro().registry()));
            case RAW -> {
                if (fed.size() != 1) {
                    throw new IllegalArgumentException(
                            "decode.raw writes the whole record into one column; "
                                    + fed.size()
                                    + " columns are left for it");
                }
                yield new RawDecoder(fed.get(0));
            }
            case GENERATOR ->
                    throw new IllegalArgumentException(
                            "the generator decoder needs the generator source: use"
                                    + " create(PipelineSpec, TargetColumns)");
        };
    }

    /** The target columns no transform computes, with their converters. */
    private static List<ColumnSlot> fed(TargetColumns target, Set<String> produced) {
        List<ColumnSlot> fed = new ArrayList<>();
        for (int i = 0; i < target.size(); i++) {
            TableSchema.Column c = target.columns().get(i);
            if (produced.contains(c.name())) {
                continue;
            }
            if (c.type() == null) {
                throw new IllegalArgumentException(
                        "column " + c.name() + " has a type Sluice cannot write: " + c.typeName());
            }
            fed.add(new ColumnSlot(i, c.name(), c.typeName(), Converters.forType(c.type())));
        }
        return fed;
    }

    /** Renames and drops from the transforms; for CSV/TSV also {@code fields} (column → name). */
    private static FieldRules rules(DecodeSpec decode, List<TransformSpec> transforms) {
        FieldRules rules = Transforms.fieldRules(transforms);
        if (decode.format() == Format.JSON || decode.fields().isEmpty()) {
            return rules;
        }
        Map<String, String> renames = new HashMap<>(rules.renames());
        decode.fields().forEach((column, field) -> renames.put(field, column));
        return new FieldRules(renames, rules.drops());
    }

    /** Each fed column's path: from {@code fields}, a rename, or its own name as a key. */
    private static List<String> jsonPaths(
            DecodeSpec decode, FieldRules rules, List<ColumnSlot> fed, TargetColumns target) {
        Set<String> fedNames = new LinkedHashSet<>();
        fed.forEach(s -> fedNames.add(s.name));
        for (Map.Entry<String, String> f : decode.fields().entrySet()) {
            String column = f.getKey();
            if (MetadataColumns.isField(f.getValue())) {
                continue; // fed by the message's metadata, not the decoder
            }
            TableSchema.Column c = target.table().column(column);
            if (c != null && !c.insertable()) {
                throw new IllegalArgumentException(
                        "fields: column "
                                + column
                                + " is "
                                + c.defaultKind()
                                + ", computed by the server: an INSERT cannot send it");
            }
            if (!fedNames.contains(column)) {
                throw new IllegalArgumentException(
                        "fields: " + column + " is not a column this pipeline's decoder writes");
            }
        }
        List<String> paths = new ArrayList<>();
        for (ColumnSlot s : fed) {
            String path = decode.fields().get(s.name);
            if (path == null) {
                String from = rules.renamedFrom(s.name);
                String key = from == null ? s.name : from;
                path = key.startsWith("/") || key.equals(JsonPath.RECORD) ? key : pointer(key);
            }
            JsonPath.parse(path); // reports a malformed path now, not per record
            paths.add(path);
        }
        return paths;
    }

    /** A JSON pointer to the top-level key {@code key}. */
    private static String pointer(String key) {
        return "/" + key.replace("~", "~0").replace("/", "~1");
    }
}
