package dev.sluice.pipeline.runtime;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a {@link TargetTable} over a connection: the schema and the deduplication setting. */
final class TargetProbe {
    private static final String WINDOW = "non_replicated_deduplication_window";
    private static final Pattern TABLE_SETTING =
            Pattern.compile("\\b" + WINDOW + "\\s*=\\s*(\\d+)");

    private TargetProbe() {}

    static TargetTable probe(NativeConnection c, String table) {
        TableSchema schema = SchemaDiscovery.describe(c, table);
        long window = schema.replicated() ? -1 : dedupWindow(c, schema);
        return new TargetTable(schema, c.server(), window);
    }

    /**
     * The table's own setting when its CREATE statement has one, else the server's default; -1 when
     * the server does not know the setting (18.16 does not).
     */
    private static long dedupWindow(NativeConnection c, TableSchema schema) {
        List<List<Object>> server =
                c.queryRows(
                        "SELECT value FROM system.merge_tree_settings WHERE name = "
                                + SchemaDiscovery.literal(WINDOW));
        if (server.isEmpty()) {
            return -1;
        }
        List<List<Object>> create =
                c.queryRows(
                        "SELECT create_table_query FROM system.tables WHERE database = "
                                + SchemaDiscovery.literal(schema.database())
                                + " AND name = "
                                + SchemaDiscovery.literal(schema.table()));
        if (!create.isEmpty()) {
            Matcher m = TABLE_SETTING.matcher(String.valueOf(create.get(0).get(0)));
            if (m.find()) {
                return Long.parseLong(m.group(1));
            }
        }
        return Long.parseLong(String.valueOf(server.get(0).get(0)).trim());
    }
}
