package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;

/**
 * Packet codes a client sends (ClickHouse {@code Protocol::Client}); each packet starts with its
 * code as a VarUInt. This client sends Hello, Query, Data, Cancel and Ping; the rest are listed so
 * that logs and tests can name any code.
 */
public enum ClientPacketType {
    HELLO(0),
    QUERY(1),
    /** A block: external-table data after Query, or INSERT data; an empty block ends the data. */
    DATA(2),
    CANCEL(3),
    PING(4),
    TABLES_STATUS_REQUEST(5),
    KEEP_ALIVE(6),
    SCALAR(7),
    IGNORED_PART_UUIDS(8),
    READ_TASK_RESPONSE(9),
    MERGE_TREE_READ_TASK_RESPONSE(10),
    SSH_CHALLENGE_REQUEST(11),
    SSH_CHALLENGE_RESPONSE(12),
    QUERY_PLAN(13),
    MERGE_TREE_ALL_RANGES_ANNOUNCEMENT_RESPONSE(14);

    private final int code;

    ClientPacketType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Writes the code that starts the packet. */
    public void write(WireOutput out) {
        out.writeVarUInt(code);
    }
}
