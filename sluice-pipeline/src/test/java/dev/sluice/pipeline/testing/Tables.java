package dev.sluice.pipeline.testing;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import java.util.ArrayList;
import java.util.List;

/** Table schemas built in code, as SchemaDiscovery would report them. */
public final class Tables {
    private Tables() {}

    /**
     * A MergeTree table from {@code name type [DEFAULT|MATERIALIZED|ALIAS expr]} entries, e.g.
     * {@code "n UInt64"}, {@code "tag String DEFAULT 'x'"}.
     */
    public static TableSchema table(String name, String... columns) {
        return withEngine(name, "MergeTree", columns);
    }

    public static TableSchema withEngine(String name, String engine, String... columns) {
        return new TableSchema("test", name, parse(columns), engine, "", "");
    }

    /** A MergeTree table with a sorting key and a partition key ("" for none). */
    public static TableSchema keyed(
            String name, String orderBy, String partitionBy, String... columns) {
        return new TableSchema("test", name, parse(columns), "MergeTree", orderBy, partitionBy);
    }

    private static List<TableSchema.Column> parse(String... columns) {
        List<TableSchema.Column> list = new ArrayList<>();
        for (String spec : columns) {
            int space = spec.indexOf(' ');
            String col = spec.substring(0, space);
            String rest = spec.substring(space + 1);
            TableSchema.DefaultKind kind = TableSchema.DefaultKind.NONE;
            String type = rest;
            String expr = "";
            for (TableSchema.DefaultKind k :
                    List.of(
                            TableSchema.DefaultKind.DEFAULT,
                            TableSchema.DefaultKind.MATERIALIZED,
                            TableSchema.DefaultKind.ALIAS)) {
                int at = rest.indexOf(" " + k + " ");
                if (at >= 0) {
                    kind = k;
                    type = rest.substring(0, at);
                    expr = rest.substring(at + k.toString().length() + 2);
                }
            }
            list.add(new TableSchema.Column(col, type, TypeParser.parse(type), kind, expr));
        }
        return list;
    }
}
