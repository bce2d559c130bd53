package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import java.util.ArrayList;
import java.util.List;

/**
 * One server log line from a Log packet (revision 54406 and above; sent while {@code
 * send_logs_level} is set for the query). The packet is a String tag, then an uncompressed Native
 * block with one row per line:
 *
 * <pre>
 * event_time DateTime | event_time_microseconds UInt32 | host_name String | query_id String
 * | thread_number UInt32 (18.x; thread_id UInt64 on newer servers) | priority Int8
 * | source String | text String
 * </pre>
 *
 * Columns are found by name, so a server that adds or renames one does not shift the others; an
 * absent column reads as 0 or "".
 *
 * @param priority the server's Poco priority: 1 fatal ... 6 information, 7 debug, 8 trace
 */
public record LogEntry(
        long eventTimeSeconds,
        int eventTimeMicros,
        String hostName,
        String queryId,
        long threadId,
        int priority,
        String source,
        String text) {

    /** The rows of a Log packet's block. */
    public static List<LogEntry> fromBlock(Block block) {
        Column time = block.column("event_time");
        Column micros = block.column("event_time_microseconds");
        Column host = block.column("host_name");
        Column query = block.column("query_id");
        Column thread = block.column("thread_id");
        if (thread == null) {
            thread = block.column("thread_number");
        }
        Column priority = block.column("priority");
        Column source = block.column("source");
        Column text = block.column("text");
        List<LogEntry> entries = new ArrayList<>(block.rows());
        for (int r = 0; r < block.rows(); r++) {
            entries.add(
                    new LogEntry(
                            longAt(time, r),
                            (int) longAt(micros, r),
                            stringAt(host, r),
                            stringAt(query, r),
                            longAt(thread, r),
                            (int) longAt(priority, r),
                            stringAt(source, r),
                            stringAt(text, r)));
        }
        return entries;
    }

    static long longAt(Column c, int row) {
        return c == null ? 0 : c.getLong(row);
    }

    static String stringAt(Column c, int row) {
        return c == null ? "" : c.getString(row);
    }
}
