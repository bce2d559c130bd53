package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireInput;

/**
 * The server's answer to {@link ClientHello} (or an Exception packet if authentication failed).
 *
 * <pre>
 * VarUInt 0 (Hello, read by the caller) | String name | VarUInt major | VarUInt minor
 * | VarUInt server_revision
 * | [≥54058 String timezone] | [≥54372 String display_name] | [≥54401 VarUInt patch]
 * </pre>
 *
 * The gates apply to min(announced, server_revision): the server writes a field when the revision
 * the client announced has it, and a server older than the field does not know it at all. Newer
 * fields (54461 and up, some placed before the time zone) never appear because this client
 * announces at most {@link ProtocolRevision#CLIENT_REVISION}.
 *
 * @param revision the server's own protocol revision (not the negotiated one)
 * @param timezone empty when the negotiated revision predates it
 * @param displayName empty when the negotiated revision predates it
 * @param versionPatch the revision itself when the negotiated revision predates the patch field, as
 *     ClickHouse's own client does
 */
public record ServerHello(
        String name,
        int versionMajor,
        int versionMinor,
        int revision,
        String timezone,
        String displayName,
        int versionPatch) {

    /**
     * Reads the body after the packet code.
     *
     * @param announcedRevision the revision this client sent in its Hello
     */
    public static ServerHello read(WireInput in, int announcedRevision) {
        ProtocolRevision.requireSupported(announcedRevision, "ServerHello");
        String name = in.readString();
        int major = in.readVarUIntAsInt("server major version", Integer.MAX_VALUE);
        int minor = in.readVarUIntAsInt("server minor version", Integer.MAX_VALUE);
        int revision = in.readVarUIntAsInt("server revision", Integer.MAX_VALUE);
        int gate = ProtocolRevision.negotiate(announcedRevision, revision);
        String timezone =
                gate >= ProtocolRevision.DBMS_MIN_REVISION_WITH_SERVER_TIMEZONE
                        ? in.readString()
                        : "";
        String displayName =
                gate >= ProtocolRevision.DBMS_MIN_REVISION_WITH_SERVER_DISPLAY_NAME
                        ? in.readString()
                        : "";
        int patch =
                gate >= ProtocolRevision.DBMS_MIN_REVISION_WITH_VERSION_PATCH
                        ? in.readVarUIntAsInt("server patch version", Integer.MAX_VALUE)
                        : revision;
        return new ServerHello(name, major, minor, revision, timezone, displayName, patch);
    }
}
