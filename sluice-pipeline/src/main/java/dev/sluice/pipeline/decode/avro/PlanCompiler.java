package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.types.ClickHouseType;
import dev.sluice.clickhouse.types.DateTime64Type;
import dev.sluice.clickhouse.types.DateTimeType;
import dev.sluice.clickhouse.types.DecimalType;
import dev.sluice.clickhouse.types.EnumType;
import dev.sluice.clickhouse.types.FixedStringType;
import dev.sluice.clickhouse.types.JsonType;
import dev.sluice.clickhouse.types.LowCardinalityType;
import dev.sluice.clickhouse.types.NullableType;
import dev.sluice.clickhouse.types.SimpleAggregateFunctionType;
import dev.sluice.clickhouse.types.SimpleType;
import dev.sluice.clickhouse.types.TupleType;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.FieldResolver;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.avro.LogicalReaders.Target;
import dev.sluice.pipeline.decode.convert.ArrayConverter;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.MapConverter;
import dev.sluice.pipeline.decode.convert.TupleConverter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * Builds the {@link Plan} of a writer schema for a decoder's columns (docs/formats.md, "Avro").
 *
 * <p>Fields of the writer's record map to columns by name, after renames and drops, like JSON keys.
 * A record field with no column of its name is flattened into the columns {@code field.sub} when
 * there are such columns (recursively; a union of null and the record sets them all to NULL); a map
 * field likewise into the Array columns {@code field.keys} and {@code field.values}; an array of
 * records into a Nested structure, the Array columns {@code field.x} (one per field). Any other
 * field with no column is an error for every record of the schema, unless {@code ignore_unknown}
 * (then it is skipped). Fed columns the schema lacks are absent (their DEFAULT).
 */
final class PlanCompiler {
    private final Map<String, ColumnSlot> byColumn = new HashMap<>();
    private final List<ColumnSlot> fed;
    private final FieldResolver resolver;

    PlanCompiler(List<ColumnSlot> fed, FieldResolver resolver) {
        this.fed = List.copyOf(fed);
        this.resolver = resolver;
        for (ColumnSlot s : fed) {
            byColumn.put(s.name, s);
        }
    }

    /** The plan of {@code writer}; a schema that cannot map gives a plan that rejects records. */
    Plan compile(Schema writer, String describe) {
        if (writer.getType() != Schema.Type.RECORD) {
            return Plan.failed(
                    new RecordException(
                            null,
                            "the writer schema ("
                                    + describe
                                    + ") is "
                                    + avroType(writer)
                                    + ", not a record: its fields are what map to columns"),
                    describe);
        }
        Map<ColumnSlot, String> claimed = new HashMap<>();
        try {
            Step[] steps = fields(writer, "", claimed, new ArrayList<>());
            List<ColumnSlot> absent = new ArrayList<>();
            for (ColumnSlot s : fed) {
                if (!claimed.containsKey(s)) {
                    absent.add(s);
                }
            }
            return new Plan(steps, absent.toArray(new ColumnSlot[0]), null, describe);
        } catch (PlanException e) {
            return Plan.failed(
                    RecordException.ofField(e.field(), e.getMessage() + " (" + describe + ")"),
                    describe);
        }
    }

    private Step[] fields(
            Schema record, String prefix, Map<ColumnSlot, String> claimed, List<ColumnSlot> leaves)
            throws PlanException {
        List<Step> steps = new ArrayList<>();
        for (Schema.Field f : record.getFields()) {
            String name = prefix + f.name();
            Schema fs = f.schema();
            String type = avroType(fs);
            if (resolver.rules().drops().contains(name)) {
                steps.add(new Steps.Skip(Skipper.of(fs), name, type));
                continue;
            }
            String column = resolver.rules().columnFor(name);
            ColumnSlot slot = byColumn.get(column);
            if (slot != null) {
                claim(slot, name, claimed);
                leaves.add(slot);
                steps.add(new Steps.Into(slot, value(fs, slot.converter, name), name, type));
                continue;
            }
            int nullBranch = nullBranch(fs);
            Schema inner = nullBranch < 0 ? fs : fs.getTypes().get(1 - nullBranch);
            if (fs.getType() == Schema.Type.UNION && nullBranch < 0) {
                inner = null; // a union of other types cannot flatten
            }
            Step step = null;
            List<ColumnSlot> under = new ArrayList<>();
            if (inner != null && inner.getType() == Schema.Type.RECORD && hasColumnsUnder(name)) {
                step = new Steps.Group(fields(inner, name + ".", claimed, under));
            } else if (inner != null && inner.getType() == Schema.Type.MAP) {
                step = mapArrays(inner, name, claimed, under);
            } else if (inner != null
                    && inner.getType() == Schema.Type.ARRAY
                    && inner.getElementType().getType() == Schema.Type.RECORD
                    && hasColumnsUnder(name)) {
                step = nested(inner, name, claimed, under);
            }
            if (step != null) {
                if (nullBranch >= 0) {
                    step =
                            new Steps.NullOr(
                                    nullBranch, step, under.toArray(new ColumnSlot[0]), name, type);
                }
                leaves.addAll(under);
                steps.add(step);
            } else if (resolver.ignoreUnknown()) {
                steps.add(new Steps.Skip(Skipper.of(fs), name, type));
            } else {
                throw new PlanException(name, resolver.whyUnknown(name));
            }
        }
        return steps.toArray(new Step[0]);
    }

    private static void claim(ColumnSlot slot, String field, Map<ColumnSlot, String> claimed)
            throws PlanException {
        String before = claimed.putIfAbsent(slot, field);
        if (before != null) {
            throw new PlanException(
                    field, "fields " + before + " and " + field + " both feed column " + slot.name);
        }
    }

    /** Some fed column is named {@code name.…}, directly or through a rename. */
    private boolean hasColumnsUnder(String name) {
        String prefix = name + ".";
        for (ColumnSlot s : fed) {
            if (s.name.startsWith(prefix)) {
                return true;
            }
        }
        for (String from : resolver.rules().renames().keySet()) {
            if (from.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The map as {@code name.keys} / {@code name.values} Array columns, or null when none. */
    private Step mapArrays(
            Schema map, String name, Map<ColumnSlot, String> claimed, List<ColumnSlot> under)
            throws PlanException {
        ColumnSlot keys = byColumn.get(resolver.rules().columnFor(name + ".keys"));
        ColumnSlot values = byColumn.get(resolver.rules().columnFor(name + ".values"));
        if (keys == null && values == null) {
            return null;
        }
        Converter keyConv = null;
        if (keys != null) {
            if (!(keys.converter instanceof ArrayConverter a)) {
                throw new PlanException(
                        name, "the map's keys need an Array column, not " + keys.typeName);
            }
            claim(keys, name + ".keys", claimed);
            under.add(keys);
            keyConv = a.element();
        }
        ValueReader value = null;
        Schema valueType = map.getValueType();
        if (values != null) {
            if (!(values.converter instanceof ArrayConverter a)) {
                throw new PlanException(
                        name, "the map's values need an Array column, not " + values.typeName);
            }
            claim(values, name + ".values", claimed);
            under.add(values);
            value = value(valueType, a.element(), name + ".values");
        }
        return new Steps.MapArrays(
                keys, keyConv, values, value, Skipper.of(valueType), name, avroType(map));
    }

    /**
     * An array of records as the Nested structure {@code name.x Array(..)}, one column per field of
     * the item record.
     */
    private Step nested(
            Schema array, String name, Map<ColumnSlot, String> claimed, List<ColumnSlot> under)
            throws PlanException {
        Schema item = array.getElementType();
        List<Schema.Field> fields = item.getFields();
        ColumnSlot[] columns = new ColumnSlot[fields.size()];
        ValueReader[] readers = new ValueReader[fields.size()];
        Skipper[] skips = new Skipper[fields.size()];
        List<ColumnSlot> all = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            Schema.Field f = fields.get(i);
            String sub = name + "." + f.name();
            skips[i] = Skipper.of(f.schema());
            if (resolver.rules().drops().contains(sub)) {
                continue;
            }
            ColumnSlot slot = byColumn.get(resolver.rules().columnFor(sub));
            if (slot == null) {
                if (!resolver.ignoreUnknown()) {
                    throw new PlanException(sub, resolver.whyUnknown(sub));
                }
                continue;
            }
            if (!(slot.converter instanceof ArrayConverter a)) {
                throw new PlanException(
                        sub,
                        "a field of an array of records needs an Array column (the Nested form),"
                                + " not "
                                + slot.typeName);
            }
            claim(slot, sub, claimed);
            columns[i] = slot;
            readers[i] = value(f.schema(), a.element(), sub);
            all.add(slot);
        }
        under.addAll(all);
        return new Steps.NestedArrays(
                columns,
                readers,
                skips,
                all.toArray(new ColumnSlot[0]),
                Skipper.of(item).minBytes(),
                name,
                avroType(array));
    }

    /** The branch index of null in a union of null and one other type, else -1. */
    private static int nullBranch(Schema s) {
        if (s.getType() != Schema.Type.UNION || s.getTypes().size() != 2) {
            return -1;
        }
        for (int i = 0; i < 2; i++) {
            if (s.getTypes().get(i).getType() == Schema.Type.NULL) {
                return i;
            }
        }
        return -1;
    }

    /** The reader of a value of {@code s} into a column (or part) converted by {@code conv}. */
    ValueReader value(Schema s, Converter conv, String field) throws PlanException {
        ClickHouseType base = base(conv.type());
        LogicalType logical = s.getLogicalType();
        if (logical != null) {
            ValueReader r = logical(s, logical, conv, base);
            if (r != null) {
                return r;
            }
        }
        return switch (s.getType()) {
            case NULL -> new ScalarReaders.Null(conv);
            case BOOLEAN -> new ScalarReaders.Bool(conv);
            case INT -> new ScalarReaders.IntOrLong(conv, false);
            case LONG -> new ScalarReaders.IntOrLong(conv, true);
            case FLOAT -> new ScalarReaders.Float32(conv, isText(base));
            case DOUBLE -> new ScalarReaders.Float64(conv);
            case STRING, BYTES -> new ScalarReaders.Text(conv);
            case FIXED -> new ScalarReaders.Fixed(conv, s.getFixedSize());
            case ENUM -> enumReader(s, conv, base);
            case ARRAY -> {
                if (!(conv instanceof ArrayConverter a)) {
                    throw refused(s, conv, field, "an Array");
                }
                Schema item = s.getElementType();
                yield new CompositeReaders.Array(
                        value(item, a.element(), field), Skipper.of(item).minBytes());
            }
            case MAP -> {
                if (!(conv instanceof MapConverter m)) {
                    throw refused(
                            s, conv, field, "a Map (or Array columns " + field + ".keys/.values)");
                }
                yield new CompositeReaders.Map(m.key(), value(s.getValueType(), m.value(), field));
            }
            case RECORD -> {
                if (!(conv instanceof TupleConverter t)) {
                    throw refused(s, conv, field, "a Tuple (or columns " + field + ".<name>)");
                }
                yield tuple(s, t, field);
            }
            case UNION -> union(s, conv, field);
        };
    }

    private static PlanException refused(Schema s, Converter conv, String field, String needs) {
        return new PlanException(
                field,
                "an Avro "
                        + avroType(s)
                        + " cannot go to a column of type "
                        + conv.type().typeName()
                        + "; it needs "
                        + needs);
    }

    private ValueReader union(Schema s, Converter conv, String field) throws PlanException {
        List<Schema> types = s.getTypes();
        ValueReader[] branches = new ValueReader[types.size()];
        PlanException first = null;
        int usable = 0;
        for (int i = 0; i < branches.length; i++) {
            Schema b = types.get(i);
            try {
                branches[i] = value(b, conv, field);
                if (b.getType() != Schema.Type.NULL) {
                    usable++;
                }
            } catch (PlanException e) {
                first = first == null ? e : first;
                branches[i] =
                        new ScalarReaders.Refused(
                                "the union's " + avroType(b) + " branch: " + e.getMessage());
            }
        }
        if (usable == 0 && first != null) {
            throw first;
        }
        return new ScalarReaders.Union(branches);
    }

    private ValueReader tuple(Schema record, TupleConverter t, String field) throws PlanException {
        List<Schema.Field> fields = record.getFields();
        boolean named = !t.names().isEmpty();
        if (!named && fields.size() != t.size()) {
            throw new PlanException(
                    field,
                    "the record has "
                            + fields.size()
                            + " fields, the column's "
                            + t.type().typeName()
                            + " "
                            + t.size()
                            + " elements (a tuple with element names is matched by name)");
        }
        ValueReader[] readers = new ValueReader[fields.size()];
        Skipper[] skips = new Skipper[fields.size()];
        int[] element = new int[fields.size()];
        boolean[] filled = new boolean[t.size()];
        for (int i = 0; i < fields.size(); i++) {
            Schema.Field f = fields.get(i);
            int e = named ? t.names().indexOf(f.name()) : i;
            if (e < 0) {
                if (!resolver.ignoreUnknown()) {
                    throw new PlanException(
                            field + "." + f.name(),
                            "the column's "
                                    + t.type().typeName()
                                    + " has no element "
                                    + f.name()
                                    + " (ignore_unknown skips such fields)");
                }
                skips[i] = Skipper.of(f.schema());
                continue;
            }
            element[i] = e;
            filled[e] = true;
            readers[i] = value(f.schema(), t.element(e), field + "." + f.name());
        }
        int[] unfilled =
                java.util.stream.IntStream.range(0, t.size()).filter(e -> !filled[e]).toArray();
        return new CompositeReaders.Tuple(readers, skips, element, unfilled);
    }

    private static ValueReader enumReader(Schema s, Converter conv, ClickHouseType base) {
        List<String> symbols = s.getEnumSymbols();
        byte[][] bytes = new byte[symbols.size()][];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = symbols.get(i).getBytes(StandardCharsets.UTF_8);
        }
        int[] values = null;
        if (base instanceof EnumType e) {
            values = new int[bytes.length];
            Arrays.fill(values, ScalarReaders.EnumSymbol.NO_VALUE);
            for (int i = 0; i < bytes.length; i++) {
                for (EnumType.Entry entry : e.entries()) {
                    if (entry.name().equals(symbols.get(i))) {
                        values[i] = entry.value();
                    }
                }
            }
        }
        return new ScalarReaders.EnumSymbol(conv, bytes, s.getFullName(), values);
    }

    /** The reader of a logical type, or null to read the underlying type as it is. */
    private static ValueReader logical(
            Schema s, LogicalType logical, Converter conv, ClickHouseType base) {
        String name = logical.getName();
        return switch (name) {
            case "decimal" -> {
                int scale = ((LogicalTypes.Decimal) logical).getScale();
                int fixed = s.getType() == Schema.Type.FIXED ? s.getFixedSize() : -1;
                int columnScale = base instanceof DecimalType d ? d.scale() : 0;
                yield new LogicalReaders.Decimal(
                        conv, scale, fixed, numberTarget(base), columnScale);
            }
            case "big-decimal" -> new LogicalReaders.BigDecimalBytes(conv, numberTarget(base));
            case "date" -> new LogicalReaders.Date(conv);
            case "time-millis" -> new LogicalReaders.TimeOfDay(conv, 3, isText(base));
            case "time-micros" -> new LogicalReaders.TimeOfDay(conv, 6, isText(base));
            case "timestamp-millis",
                    "timestamp-micros",
                    "timestamp-nanos",
                    "local-timestamp-millis",
                    "local-timestamp-micros",
                    "local-timestamp-nanos" -> {
                int digits = name.endsWith("millis") ? 3 : name.endsWith("micros") ? 6 : 9;
                boolean local = name.startsWith("local-");
                yield switch (base) {
                    case DateTimeType d ->
                            new LogicalReaders.Timestamp(
                                    conv, digits, Target.MOMENT, 0, local, d.timezone());
                    case DateTime64Type d ->
                            new LogicalReaders.Timestamp(
                                    conv,
                                    digits,
                                    Target.MOMENT,
                                    d.precision(),
                                    local,
                                    d.timezone());
                    case SimpleType t when t == SimpleType.DATE || t == SimpleType.DATE32 ->
                            new LogicalReaders.Timestamp(conv, digits, Target.DATE, 0, local, null);
                    default ->
                            new LogicalReaders.Timestamp(
                                    conv,
                                    digits,
                                    isText(base) ? Target.TEXT : Target.PLAIN,
                                    0,
                                    local,
                                    null);
                };
            }
            case "uuid" -> {
                if (s.getType() != Schema.Type.FIXED) {
                    yield null; // a string: its text, which a UUID column parses
                }
                yield new LogicalReaders.UuidFixed(
                        conv,
                        base == SimpleType.UUID
                                ? Target.UUID
                                : base == SimpleType.STRING ? Target.TEXT : Target.PLAIN);
            }
            case "duration" -> {
                if (base instanceof TupleType t
                        && t.elements().size() == 3
                        && conv instanceof TupleConverter tc) {
                    yield new LogicalReaders.Duration(
                            conv,
                            new Converter[] {tc.element(0), tc.element(1), tc.element(2)},
                            Target.TUPLE);
                }
                yield new LogicalReaders.Duration(
                        conv, null, base == SimpleType.STRING ? Target.TEXT : Target.PLAIN);
            }
            default -> null; // as Avro does: an unknown logical type is its underlying type
        };
    }

    private static Target numberTarget(ClickHouseType base) {
        if (base instanceof DecimalType) {
            return Target.DECIMAL;
        }
        if (base == SimpleType.FLOAT32 || base == SimpleType.FLOAT64) {
            return Target.FLOAT;
        }
        return isText(base) ? Target.TEXT : Target.PLAIN;
    }

    /** The type under Nullable, LowCardinality and SimpleAggregateFunction. */
    static ClickHouseType base(ClickHouseType t) {
        while (true) {
            switch (t) {
                case NullableType n -> t = n.inner();
                case LowCardinalityType l -> t = l.inner();
                case SimpleAggregateFunctionType s -> t = s.inner();
                default -> {
                    return t;
                }
            }
        }
    }

    private static boolean isText(ClickHouseType base) {
        return base == SimpleType.STRING
                || base instanceof FixedStringType
                || base instanceof JsonType;
    }

    /** The Avro type as people write it: {@code long}, {@code ["null","string"]}, a name. */
    static String avroType(Schema s) {
        return switch (s.getType()) {
            case RECORD, ENUM, FIXED -> s.getType().getName() + " " + s.getFullName();
            case ARRAY -> "array of " + avroType(s.getElementType());
            case MAP -> "map of " + avroType(s.getValueType());
            case UNION -> {
                StringBuilder sb = new StringBuilder("union [");
                for (int i = 0; i < s.getTypes().size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(avroType(s.getTypes().get(i)));
                }
                yield sb.append(']').toString();
            }
            default ->
                    s.getLogicalType() == null
                            ? s.getType().getName()
                            : s.getType().getName() + " (" + s.getLogicalType().getName() + ")";
        };
    }
}
