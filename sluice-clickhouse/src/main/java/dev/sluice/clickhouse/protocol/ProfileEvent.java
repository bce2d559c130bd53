package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import java.util.ArrayList;
import java.util.List;

/**
 * One counter from a ProfileEvents packet (revision 54451 and above; for INSERTs from 54456). The
 * packet is an empty String, then an uncompressed Native block with one row per counter:
 *
 * <pre>
 * host_name String | current_time DateTime | thread_id UInt64
 * | type Enum8('increment' = 1, 'gauge' = 2) (Int8 on some versions) | name String
 * | value Int64 (UInt64 before 22.x)
 * </pre>
 *
 * Columns are found by name; an absent one reads as 0 or "".
 */
public record ProfileEvent(
        String hostName,
        long currentTimeSeconds,
        long threadId,
        Type type,
        String name,
        long value) {

    /** Increments add up over a query; gauges are the current value (e.g. memory in use). */
    public enum Type {
        INCREMENT,
        GAUGE,
        /** A code this client does not know. */
        OTHER;

        static Type of(long code) {
            return code == 1 ? INCREMENT : code == 2 ? GAUGE : OTHER;
        }
    }

    /** The rows of a ProfileEvents packet's block. */
    public static List<ProfileEvent> fromBlock(Block block) {
        Column host = block.column("host_name");
        Column time = block.column("current_time");
        Column thread = block.column("thread_id");
        Column type = block.column("type");
        Column name = block.column("name");
        Column value = block.column("value");
        List<ProfileEvent> events = new ArrayList<>(block.rows());
        for (int r = 0; r < block.rows(); r++) {
            events.add(
                    new ProfileEvent(
                            LogEntry.stringAt(host, r),
                            LogEntry.longAt(time, r),
                            LogEntry.longAt(thread, r),
                            Type.of(LogEntry.longAt(type, r)),
                            LogEntry.stringAt(name, r),
                            LogEntry.longAt(value, r)));
        }
        return events;
    }
}
