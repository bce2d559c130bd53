package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.List;
import java.util.Objects;

/**
 * Starts a query. For an INSERT the client follows it with an empty Data block (no external
 * tables), waits for the server's header block, then sends the data.
 *
 * <pre>
 * VarUInt 1 (Query) | String query_id
 * | [≥54032 {@link ClientInfo}]
 * | settings, then String "" ({@link SettingsFormat})
 * | [≥54441 String interserver_secret_hash = ""]
 * | VarUInt stage = 2 (Complete) | VarUInt compression (0 off, 1 on) | String query
 * | [≥54459 per parameter: String name | VarUInt flags = 0x02 | String quoted value;
 *           then String ""]
 * </pre>
 *
 * @param queryId empty to let the server choose one
 * @param compression whether the blocks of this query travel in compressed frames, both ways
 */
public record QueryPacket(
        String queryId,
        ClientInfo clientInfo,
        List<QuerySetting> settings,
        boolean compression,
        String query,
        List<QueryParameter> parameters) {

    /** QueryProcessingStage::Complete: run the query to the end on the server. */
    private static final int STAGE_COMPLETE = 2;

    public QueryPacket {
        Objects.requireNonNull(queryId, "queryId");
        Objects.requireNonNull(clientInfo, "clientInfo");
        settings = List.copyOf(settings);
        Objects.requireNonNull(query, "query");
        parameters = List.copyOf(parameters);
    }

    /**
     * Writes the packet, code included, for the negotiated revision. Throws {@link
     * IllegalArgumentException} before writing anything if a setting or a parameter cannot be sent
     * at that revision.
     */
    public void write(WireOutput out, int revision) {
        ProtocolRevision.requireSupported(revision, "Query");
        if (!parameters.isEmpty()
                && revision < ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_PARAMETERS) {
            throw new IllegalArgumentException(
                    "query parameters need revision 54459 or newer; negotiated " + revision);
        }
        // Settings are the only part that can still be refused (binary encoding); encode them
        // first so that a refusal leaves `out` untouched.
        WireOutput encodedSettings = new WireOutput(64);
        SettingsFormat.write(encodedSettings, settings, revision);

        ClientPacketType.QUERY.write(out);
        out.writeString(queryId);
        if (revision >= ProtocolRevision.DBMS_MIN_REVISION_WITH_CLIENT_INFO) {
            clientInfo.write(out, revision);
        }
        out.writeBytes(encodedSettings.array(), 0, encodedSettings.position());
        if (revision >= ProtocolRevision.DBMS_MIN_REVISION_WITH_INTERSERVER_SECRET) {
            out.writeString(""); // only servers talking to servers of their cluster fill it
        }
        out.writeVarUInt(STAGE_COMPLETE);
        out.writeVarUInt(compression ? 1 : 0);
        out.writeString(query);
        if (revision >= ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_PARAMETERS) {
            for (QueryParameter p : parameters) {
                out.writeString(p.name());
                out.writeVarUInt(SettingsFormat.FLAG_CUSTOM);
                out.writeString(p.quotedValue());
            }
            out.writeString("");
        }
    }
}
