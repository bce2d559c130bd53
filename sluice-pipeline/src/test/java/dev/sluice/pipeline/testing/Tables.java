package dev.sluice.pipeline.testing;

import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import java.util.ArrayList;
import java.util.List;

/** Table schemas built in code, as SchemaDiscovery would report them. */
public final class Tables {
    private Tables() {}

    /**
     * A MergeTree table from {@code name type [DEFAULT expr]} entries, e.g. {@code "n UInt64"},
     * {@code "tag String DEFAULT 'x'"}.
     */
    public static TableSchema table(String name, String... columns) {
        return withEngine(name, "MergeTree", columns);
    }

    public static TableSchema withEngine(String name, String engine, String... columns) {
        List<TableSchema.Column> list = new ArrayList<>();
        for (String spec : columns) {
            int space = spec.indexOf(' ');
            String col = spec.substring(0, space);
            String rest = spec.substring(space + 1);
            int def = rest.indexOf(" DEFAULT ");
            String type = def < 0 ? rest : rest.substring(0, def);
            String expr = def < 0 ? "" : rest.substring(def + " DEFAULT ".length());
            list.add(
                    new TableSchema.Column(
                            col,
                            type,
                            TypeParser.parse(type),
                            def < 0
                                    ? TableSchema.DefaultKind.NONE
                                    : TableSchema.DefaultKind.DEFAULT,
                            expr));
        }
        return new TableSchema("test", name, list, engine, "", "");
    }
}
