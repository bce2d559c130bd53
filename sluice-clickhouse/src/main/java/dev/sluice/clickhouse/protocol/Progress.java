package dev.sluice.clickhouse.protocol;

import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_SERVER_QUERY_TIME_IN_PROGRESS;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_TOTAL_BYTES_IN_PROGRESS;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_REVISION_WITH_CLIENT_WRITE_INFO;

import dev.sluice.clickhouse.io.WireInput;

/**
 * Query progress. Each Progress packet holds the increments since the previous one (elapsed time
 * included), so a running total is the {@link #plus sum} of all received.
 *
 * <pre>
 * VarUInt read_rows | VarUInt read_bytes | VarUInt total_rows_to_read
 * | [≥54463 VarUInt total_bytes_to_read]
 * | [≥54420 VarUInt written_rows | VarUInt written_bytes]
 * | [≥54460 VarUInt elapsed_ns]
 * </pre>
 *
 * Counters are unsigned 64-bit on the wire and held in {@code long}s; they do not reach 2^63 in
 * practice. Fields absent at the negotiated revision are 0.
 */
public record Progress(
        long readRows,
        long readBytes,
        long totalRowsToRead,
        long totalBytesToRead,
        long writtenRows,
        long writtenBytes,
        long elapsedNanos) {

    public static final Progress ZERO = new Progress(0, 0, 0, 0, 0, 0, 0);

    /** Reads the body after the packet code. */
    public static Progress read(WireInput in, int revision) {
        long readRows = in.readVarUInt();
        long readBytes = in.readVarUInt();
        long totalRows = in.readVarUInt();
        long totalBytes =
                revision >= DBMS_MIN_PROTOCOL_VERSION_WITH_TOTAL_BYTES_IN_PROGRESS
                        ? in.readVarUInt()
                        : 0;
        long writtenRows = 0;
        long writtenBytes = 0;
        if (revision >= DBMS_MIN_REVISION_WITH_CLIENT_WRITE_INFO) {
            writtenRows = in.readVarUInt();
            writtenBytes = in.readVarUInt();
        }
        long elapsed =
                revision >= DBMS_MIN_PROTOCOL_VERSION_WITH_SERVER_QUERY_TIME_IN_PROGRESS
                        ? in.readVarUInt()
                        : 0;
        return new Progress(
                readRows, readBytes, totalRows, totalBytes, writtenRows, writtenBytes, elapsed);
    }

    /** The field-wise sum: accumulates increments. */
    public Progress plus(Progress other) {
        return new Progress(
                readRows + other.readRows,
                readBytes + other.readBytes,
                totalRowsToRead + other.totalRowsToRead,
                totalBytesToRead + other.totalBytesToRead,
                writtenRows + other.writtenRows,
                writtenBytes + other.writtenBytes,
                elapsedNanos + other.elapsedNanos);
    }
}
