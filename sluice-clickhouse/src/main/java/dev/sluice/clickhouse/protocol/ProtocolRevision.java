package dev.sluice.clickhouse.protocol;

/**
 * Native protocol revisions ("protocol versions") that change the bytes this package reads or
 * writes, named as in ClickHouse's {@code ProtocolDefines.h} (older ones from {@code Defines.h}).
 *
 * <p>Every field added after the first release is present exactly when the revision both sides
 * agreed on is at least the field's constant. The server gates what it writes on the revision the
 * client announced; it only knows constants up to its own revision, so both sides effectively use
 * {@link #negotiate(int, int) min(client, server)}.
 */
public final class ProtocolRevision {

    private ProtocolRevision() {}

    /** Data packets carry an external-table name String. */
    public static final int DBMS_MIN_REVISION_WITH_TEMPORARY_TABLES = 50264;

    /** Blocks start with BlockInfo. */
    public static final int DBMS_MIN_REVISION_WITH_BLOCK_INFO = 51903;

    /** The Query packet carries ClientInfo. */
    public static final int DBMS_MIN_REVISION_WITH_CLIENT_INFO = 54032;

    /** ServerHello carries the server time zone. */
    public static final int DBMS_MIN_REVISION_WITH_SERVER_TIMEZONE = 54058;

    /** ClientInfo carries a quota key. */
    public static final int DBMS_MIN_REVISION_WITH_QUOTA_KEY_IN_CLIENT_INFO = 54060;

    /** The server sends {@code DateTime('tz')} type names (below: plain {@code DateTime}). */
    public static final int DBMS_MIN_REVISION_WITH_TIME_ZONE_PARAMETER_IN_DATETIME_DATA_TYPE =
            54337;

    /** ServerHello carries a display name. */
    public static final int DBMS_MIN_REVISION_WITH_SERVER_DISPLAY_NAME = 54372;

    /** ServerHello and (TCP) ClientInfo carry the patch version. */
    public static final int DBMS_MIN_REVISION_WITH_VERSION_PATCH = 54401;

    /** The server sends LowCardinality columns as such (below: as their inner type). */
    public static final int DBMS_MIN_REVISION_WITH_LOW_CARDINALITY_TYPE = 54405;

    /** The server may send Log packets. */
    public static final int DBMS_MIN_REVISION_WITH_SERVER_LOGS = 54406;

    /** The server may send TableColumns before an INSERT's header block. */
    public static final int DBMS_MIN_REVISION_WITH_COLUMN_DEFAULTS_METADATA = 54410;

    /** Progress carries written rows and bytes. */
    public static final int DBMS_MIN_REVISION_WITH_CLIENT_WRITE_INFO = 54420;

    /** Settings travel as (name, flags, string value) instead of type-specific binary values. */
    public static final int DBMS_MIN_REVISION_WITH_SETTINGS_SERIALIZED_AS_STRINGS = 54429;

    /** The Query packet carries an inter-server secret hash (empty for ordinary clients). */
    public static final int DBMS_MIN_REVISION_WITH_INTERSERVER_SECRET = 54441;

    /** ClientInfo carries an optional OpenTelemetry trace context. */
    public static final int DBMS_MIN_REVISION_WITH_OPENTELEMETRY = 54442;

    /** ClientInfo carries the distributed depth. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_DISTRIBUTED_DEPTH = 54448;

    /** ClientInfo carries the initial query start time in microseconds. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_INITIAL_QUERY_START_TIME = 54449;

    /** The server may send ProfileEvents packets. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_INCREMENTAL_PROFILE_EVENTS = 54451;

    /** ClientInfo carries the parallel-replicas fields. */
    public static final int DBMS_MIN_REVISION_WITH_PARALLEL_REPLICAS = 54453;

    /** Every column of a block carries a custom-serialization flag byte. */
    public static final int DBMS_MIN_REVISION_WITH_CUSTOM_SERIALIZATION = 54454;

    /** ProfileEvents packets are also sent for INSERT queries. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_PROFILE_EVENTS_IN_INSERT = 54456;

    /** The client sends an Addendum right after receiving ServerHello. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_ADDENDUM = 54458;

    /** The Addendum carries the quota key. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_QUOTA_KEY = 54458;

    /** The Query packet carries query parameters after the query text. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_PARAMETERS = 54459;

    /** Progress carries the elapsed server time. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_SERVER_QUERY_TIME_IN_PROGRESS = 54460;

    /** Progress carries total bytes to read. Above {@link #CLIENT_REVISION}: never negotiated. */
    public static final int DBMS_MIN_PROTOCOL_VERSION_WITH_TOTAL_BYTES_IN_PROGRESS = 54463;

    /** ProfileInfo carries rows before aggregation. Above {@link #CLIENT_REVISION}. */
    public static final int DBMS_MIN_REVISION_WITH_ROWS_BEFORE_AGGREGATION = 54469;

    /**
     * The revision this client announces. It is the newest revision whose every packet change this
     * package implements; the next ones add ServerHello fields, chunked framing and
     * sparse/replicated column kinds.
     */
    public static final int CLIENT_REVISION =
            DBMS_MIN_PROTOCOL_VERSION_WITH_SERVER_QUERY_TIME_IN_PROGRESS;

    /** The revision both sides use after the handshake: the lower of the two. */
    public static int negotiate(int client, int server) {
        return Math.min(client, server);
    }

    /**
     * Rejects a revision above {@link #CLIENT_REVISION} for packets whose later layouts this
     * package does not implement; passing the server's own revision instead of the negotiated one
     * is the usual cause.
     */
    static void requireSupported(int revision, String packet) {
        if (revision > CLIENT_REVISION) {
            throw new IllegalArgumentException(
                    packet
                            + " layout for revision "
                            + revision
                            + " is not implemented (newest supported: "
                            + CLIENT_REVISION
                            + "); pass the negotiated revision, not the server's");
        }
    }
}
