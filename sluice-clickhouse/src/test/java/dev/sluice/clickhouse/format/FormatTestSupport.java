package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnValues;
import dev.sluice.clickhouse.io.WireOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Blocks from Java values, and what a format makes of them. */
final class FormatTestSupport {
    private FormatTestSupport() {}

    record Col(String name, String type, List<Object> values) {}

    static Col col(String name, String type, Object... values) {
        return new Col(name, type, Arrays.asList(values));
    }

    static Block block(Col... cols) {
        List<Column> columns = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (Col c : cols) {
            Column column = ColumnFactory.create(c.name(), c.type());
            for (Object v : c.values()) {
                ColumnValues.append(column, v);
            }
            columns.add(column);
            types.add(c.type());
        }
        return new Block(columns, types);
    }

    /** One column called {@code c}. */
    static Block block(String type, Object... values) {
        return block(col("c", type, values));
    }

    static byte[] bytes(InputFormat format, Block block) {
        WireOutput out = new WireOutput(64);
        format.write(block, out);
        return out.toByteArray();
    }

    static String text(InputFormat format, Block block) {
        return new String(bytes(format, block), StandardCharsets.UTF_8);
    }

    static String text(InputFormat format, String type, Object... values) {
        return text(format, block(type, values));
    }

    static List<Object> list(Object... values) {
        return Arrays.asList(values);
    }

    static Map<Object, Object> map(Object... keysAndValues) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}
