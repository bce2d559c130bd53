package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireInput;

/**
 * Totals of the result stream, sent once near the end of a SELECT.
 *
 * <pre>
 * VarUInt rows | VarUInt blocks | VarUInt bytes | Bool applied_limit | VarUInt rows_before_limit
 * | Bool calculated_rows_before_limit
 * | [≥54469 Bool applied_aggregation | VarUInt rows_before_aggregation]
 * </pre>
 *
 * The 54469 fields lie above {@link ProtocolRevision#CLIENT_REVISION}; they are read (and dropped)
 * so that the layout is right at any revision.
 */
public record ProfileInfo(
        long rows,
        long blocks,
        long bytes,
        boolean appliedLimit,
        long rowsBeforeLimit,
        boolean calculatedRowsBeforeLimit) {

    /** Reads the body after the packet code. */
    public static ProfileInfo read(WireInput in, int revision) {
        ProfileInfo info =
                new ProfileInfo(
                        in.readVarUInt(),
                        in.readVarUInt(),
                        in.readVarUInt(),
                        in.readBoolean(),
                        in.readVarUInt(),
                        in.readBoolean());
        if (revision >= ProtocolRevision.DBMS_MIN_REVISION_WITH_ROWS_BEFORE_AGGREGATION) {
            in.readBoolean();
            in.readVarUInt();
        }
        return info;
    }
}
