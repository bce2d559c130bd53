package dev.sluice.pipeline.transform;

import dev.sluice.clickhouse.expr.Bindings;
import dev.sluice.clickhouse.expr.CompiledExpression;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.ValueType;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.FieldRules;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.decode.convert.Converters;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import dev.sluice.pipeline.time.Clock;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Builds the transform chain from the configuration. The kinds and their options:
 *
 * <pre>
 * rename:   {from: field, to: column}  or  {fields: {field: column, ...}}
 * drop:     {field: name}  or  {fields: [name, ...]}
 * constant: {column: c, value: literal}  or  {columns: {c: literal, ...}}
 * computed: {column: c, expr: "concat(a, '-', b)"}  or  {columns: {c: "expr", ...}}
 * filter:   {where: "tenant > 5 and kind in ('a', 'b')"}
 * java:     {class: com.example.MyTransform | name: provider-name,
 *            columns: [computed columns], options: {...}}
 * </pre>
 *
 * Rename and drop change how the decoder maps fields to columns ({@link #fieldRules}), so they cost
 * nothing per row and yield no {@link Transform}; the others become the chain, in order. A computed
 * expression may read the columns the decoder feeds and those computed by earlier transforms.
 * Expressions are ClickHouse's, compiled by the engine of {@code dev.sluice.clickhouse.expr} in the
 * server's time zone ({@link TargetColumns#serverZone()}); the runtime evaluates the expression
 * transforms at the end of the chain column-wise ({@link TransformChain}).
 */
public final class Transforms {
    private Transforms() {}

    public static List<Transform> create(List<TransformSpec> specs, TargetColumns target) {
        return create(specs, target, Clock.SYSTEM);
    }

    /**
     * The pipeline's chain: the message's metadata columns first (a Kafka source's {@code _key},
     * {@code _offset}, ... — {@link MetadataColumns}), then the configured transforms.
     */
    public static List<Transform> forPipeline(
            PipelineSpec spec, TargetColumns target, Clock clock) {
        List<Transform> chain = new ArrayList<>();
        MetadataColumns metadata =
                MetadataColumns.of(DecoderFactory.metadataColumns(spec, target.table()), target);
        if (metadata != null) {
            chain.add(metadata);
        }
        chain.addAll(create(spec.transforms(), target, clock));
        return chain;
    }

    /**
     * @throws IllegalArgumentException for an unknown kind, a bad option or expression, or a column
     *     the target does not have
     */
    public static List<Transform> create(
            List<TransformSpec> specs, TargetColumns target, Clock clock) {
        List<Set<String>> producedBy = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            producedBy.add(produced(i, specs.get(i)));
        }
        List<Transform> chain = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Set<String> unavailable = new HashSet<>();
            for (int j = i; j < specs.size(); j++) {
                unavailable.addAll(producedBy.get(j));
            }
            Transform t = create(i, specs.get(i), target, unavailable, clock);
            if (t != null) {
                chain.add(t);
            }
        }
        return chain;
    }

    private static Transform create(
            int i, TransformSpec spec, TargetColumns target, Set<String> unavailable, Clock clock) {
        Options o = new Options(i, spec);
        return switch (spec.kind()) {
            case "rename", "drop" -> null; // applied by the decoder through fieldRules
            case "constant", "computed" -> {
                Map<String, Object> columns = columnValues(o, spec.kind());
                Bindings bindings = ExpressionTransform.bindings(target, unavailable);
                List<ComputedColumns.Output> outputs = new ArrayList<>();
                for (Map.Entry<String, Object> e : columns.entrySet()) {
                    String sql =
                            spec.kind().equals("constant")
                                    ? literal(o, e.getValue())
                                    : text(o, e.getValue());
                    outputs.add(output(o, target, e.getKey(), sql, bindings, unavailable));
                }
                yield new ComputedColumns(outputs, clock);
            }
            case "filter" -> {
                o.only("where");
                String where = o.string("where");
                CompiledExpression condition;
                try {
                    condition =
                            ExpressionTransform.compile(
                                    where,
                                    ExpressionTransform.bindings(target, unavailable),
                                    unavailable,
                                    null);
                } catch (UnsupportedExpressionException e) {
                    throw o.error(where + ": " + e.getMessage());
                }
                ValueType t = condition.type();
                boolean uint8 = t.kind() == ValueType.Kind.INT && t.bits() == 8 && !t.signed();
                if (!uint8 && t.kind() != ValueType.Kind.NULL) {
                    throw o.error(
                            where
                                    + " is a "
                                    + t.typeName()
                                    + ", not a condition (a UInt8, as comparisons, and, or, not"
                                    + " and in give)");
                }
                yield new Filter(where, condition, clock);
            }
            case "java" -> java(o, target);
            default ->
                    throw o.error(
                            "unknown transform kind (expected rename, drop, constant, computed,"
                                    + " filter or java)");
        };
    }

    /** Renames and drops, for the decoder. */
    public static FieldRules fieldRules(List<TransformSpec> specs) {
        Map<String, String> renames = new HashMap<>();
        Set<String> drops = new HashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            TransformSpec spec = specs.get(i);
            Options o = new Options(i, spec);
            if (spec.kind().equals("rename")) {
                if (o.has("fields")) {
                    o.only("fields");
                    o.map("fields").forEach((from, to) -> rename(o, renames, from, to));
                } else {
                    o.only("from", "to");
                    rename(o, renames, o.string("from"), o.string("to"));
                }
            } else if (spec.kind().equals("drop")) {
                o.only("field", "fields");
                drops.addAll(o.has("field") ? o.strings("field") : o.strings("fields"));
            }
        }
        return new FieldRules(renames, drops);
    }

    private static void rename(Options o, Map<String, String> renames, String from, Object to) {
        if (!(to instanceof String column)) {
            throw o.error("field " + from + " must be renamed to a column name, not " + to);
        }
        if (renames.containsValue(column)) {
            throw o.error("two fields are renamed to column " + column);
        }
        renames.put(from, column);
    }

    /** Names of the columns the transforms compute (not fed by the decoder). */
    public static Set<String> producedColumns(List<TransformSpec> specs) {
        Set<String> all = new LinkedHashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            for (String c : produced(i, specs.get(i))) {
                if (!all.add(c)) {
                    throw new Options(i, specs.get(i))
                            .error("column " + c + " is already computed by an earlier transform");
                }
            }
        }
        return all;
    }

    private static Set<String> produced(int i, TransformSpec spec) {
        Options o = new Options(i, spec);
        return switch (spec.kind()) {
            case "constant", "computed" -> columnValues(o, spec.kind()).keySet();
            case "java" -> o.has("columns") ? new LinkedHashSet<>(o.strings("columns")) : Set.of();
            default -> Set.of();
        };
    }

    /** {column, expr|value} or {columns: {...}}, as column → expression or literal. */
    private static Map<String, Object> columnValues(Options o, String kind) {
        String single = kind.equals("constant") ? "value" : "expr";
        if (o.has("columns")) {
            o.only("columns");
            return o.map("columns");
        }
        o.only("column", single);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(o.string("column"), o.value(single));
        return m;
    }

    /** A computed column: its expression converted to the column's type, or via its converter. */
    private static ComputedColumns.Output output(
            Options o,
            TargetColumns target,
            String column,
            String sql,
            Bindings bindings,
            Set<String> unavailable) {
        ColumnSlot slot = slot(o, target, column);
        TableSchema.Column c = target.columns().get(slot.index);
        try {
            if (CompiledExpression.canProduce(c.type())) {
                return new ComputedColumns.Output(
                        slot,
                        ExpressionTransform.compile(sql, bindings, unavailable, c.type()),
                        false);
            }
            CompiledExpression e = ExpressionTransform.compile(sql, bindings, unavailable, null);
            if (e.type().kind() == ValueType.Kind.ORDERED) {
                throw new UnsupportedExpressionException(
                        "a " + e.type().typeName() + " cannot be written to " + c.typeName());
            }
            return new ComputedColumns.Output(slot, e, true);
        } catch (UnsupportedExpressionException e) {
            throw o.error("column " + column + " (" + c.typeName() + "): " + e.getMessage());
        }
    }

    private static ColumnSlot slot(Options o, TargetColumns target, String column) {
        int i = target.indexOf(column);
        if (i < 0) {
            throw o.error("the pipeline writes no column " + column);
        }
        TableSchema.Column c = target.columns().get(i);
        if (c.type() == null) {
            throw o.error("column " + column + " has a type Sluice cannot write: " + c.typeName());
        }
        return new ColumnSlot(i, c.name(), c.typeName(), Converters.forType(c.type()));
    }

    private static String text(Options o, Object v) {
        if (!(v instanceof String s)) {
            throw o.error("an expression must be text, not " + v);
        }
        return s;
    }

    /** A YAML scalar as an expression literal; a boolean is 1 or 0, as ClickHouse has no Bool. */
    private static String literal(Options o, Object v) {
        return switch (v) {
            case null -> "NULL";
            case String s -> "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
            case Long l -> l.toString();
            case Integer n -> n.toString();
            case Double d ->
                    Double.isFinite(d)
                            ? Double.toString(d)
                            : d.isNaN() ? "nan" : d > 0 ? "inf" : "-inf";
            case Boolean b -> b ? "1" : "0";
            default -> throw o.error("a constant must be text, a number or a boolean, not " + v);
        };
    }

    private static Transform java(Options o, TargetColumns target) {
        o.only("class", "name", "columns", "options");
        Map<String, Object> options = o.has("options") ? o.map("options") : Map.of();
        List<String> columns = o.has("columns") ? o.strings("columns") : List.of();
        Transform t;
        if (o.has("class")) {
            t = fromClass(o, o.string("class"), target, options, columns);
        } else {
            String name = o.string("name");
            TransformProvider p = null;
            for (TransformProvider candidate : ServiceLoader.load(TransformProvider.class)) {
                if (candidate.name().equals(name)) {
                    p = candidate;
                }
            }
            if (p == null) {
                throw o.error("no TransformProvider named " + name + " is on the class path");
            }
            t = p.create(target, options);
        }
        for (int c : t.producedColumns()) {
            if (!columns.contains(target.columns().get(c).name())) {
                throw o.error(
                        "the transform computes column "
                                + target.columns().get(c).name()
                                + ": list it under columns");
            }
        }
        return t;
    }

    private static Transform fromClass(
            Options o,
            String className,
            TargetColumns target,
            Map<String, Object> options,
            List<String> columns) {
        Object instance;
        try {
            Class<?> cls =
                    Class.forName(className, true, Thread.currentThread().getContextClassLoader());
            try {
                instance = cls.getConstructor(Map.class).newInstance(options);
            } catch (NoSuchMethodException e) {
                instance = cls.getConstructor().newInstance();
            }
        } catch (ClassNotFoundException e) {
            throw o.error("class " + className + " is not on the class path");
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw o.error("cannot create " + className + ": " + e);
        } catch (InvocationTargetException e) {
            throw o.error("creating " + className + " failed: " + e.getCause());
        }
        return switch (instance) {
            case TransformProvider p -> p.create(target, options);
            case RowTransform r -> RowTransforms.adapt(r, new RowView(target), columns);
            case Transform t -> t;
            default ->
                    throw o.error(
                            className + " is none of TransformProvider, RowTransform or Transform");
        };
    }
}
