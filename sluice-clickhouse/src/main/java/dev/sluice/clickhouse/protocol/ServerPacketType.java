package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;

/**
 * Packet codes a server sends (ClickHouse {@code Protocol::Server}). The code is a VarUInt; the
 * body that follows it is described per constant.
 *
 * <p>Block-carrying packets (Data, Totals, Extremes, Log, ProfileEvents) are a String (external
 * table name, or log tag) followed by a Native block, which the block layer decodes. Data, Totals
 * and Extremes blocks go through the compressed stream when the Query asked for compression; Log
 * and ProfileEvents blocks are always uncompressed at revisions up to {@link
 * ProtocolRevision#CLIENT_REVISION} (the server writes them to the raw socket stream; only from
 * revision 54481 may they be compressed).
 */
public enum ServerPacketType {
    /** {@link ServerHello}. */
    HELLO(0),
    /** String table name, then a Native block (compressed if the Query enabled compression). */
    DATA(1),
    /** {@link ServerExceptionInfo}; ends the query. */
    EXCEPTION(2),
    /** {@link Progress}: increments since the previous Progress. */
    PROGRESS(3),
    /** No body: the answer to Ping. */
    PONG(4),
    /** No body: the query finished successfully. */
    END_OF_STREAM(5),
    /** {@link ProfileInfo}. */
    PROFILE_INFO(6),
    /** Like {@link #DATA}: the totals of a GROUP BY WITH TOTALS. */
    TOTALS(7),
    /** Like {@link #DATA}: per-column minimums and maximums. */
    EXTREMES(8),
    /** Answer to TablesStatusRequest (not used by this client). */
    TABLES_STATUS_RESPONSE(9),
    /** String log tag, then an uncompressed Native block of server log lines. */
    LOG(10),
    /** {@link TableColumns}: column defaults of the INSERT target, before its header block. */
    TABLE_COLUMNS(11),
    /** Obsolete (distributed queries only). */
    PART_UUIDS(12),
    /** Distributed queries only. */
    READ_TASK_REQUEST(13),
    /** String (empty), then an uncompressed Native block of profile event counters. */
    PROFILE_EVENTS(14),
    /** Parallel replicas only. */
    MERGE_TREE_ALL_RANGES_ANNOUNCEMENT(15),
    /** Parallel replicas only. */
    MERGE_TREE_READ_TASK_REQUEST(16),
    /** {@link TimezoneUpdate}; sent from revision 54464, so never to this client. */
    TIMEZONE_UPDATE(17),
    /** SSH authentication only. */
    SSH_CHALLENGE(18),
    /** Not sent to ordinary query clients. */
    PREVIEW_DATA(19);

    private static final ServerPacketType[] BY_CODE = values();

    private final int code;

    ServerPacketType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type for a code read from the wire; an unknown code means the stream is out of step. */
    public static ServerPacketType fromCode(long code) {
        if (code >= 0 && code < BY_CODE.length) {
            return BY_CODE[(int) code];
        }
        throw new WireException(
                "unknown server packet code "
                        + Long.toUnsignedString(code)
                        + " (known: 0.."
                        + (BY_CODE.length - 1)
                        + "); the stream is out of step or the server speaks a newer protocol");
    }

    /** Reads a packet code and maps it. */
    public static ServerPacketType read(WireInput in) {
        return fromCode(in.readVarUInt());
    }
}
