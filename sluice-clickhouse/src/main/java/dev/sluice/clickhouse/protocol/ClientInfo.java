package dev.sluice.clickhouse.protocol;

import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_DISTRIBUTED_DEPTH;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_INITIAL_QUERY_START_TIME;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_REVISION_WITH_CLIENT_INFO;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_REVISION_WITH_OPENTELEMETRY;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_REVISION_WITH_PARALLEL_REPLICAS;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_REVISION_WITH_QUOTA_KEY_IN_CLIENT_INFO;
import static dev.sluice.clickhouse.protocol.ProtocolRevision.DBMS_MIN_REVISION_WITH_VERSION_PATCH;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.Objects;

/**
 * Who runs a query, as carried inside the {@link QueryPacket} (revision 54032 and up). Always an
 * initial query (kind 1) over the TCP interface (1): this is a client, not a server forwarding a
 * query to a shard.
 *
 * <pre>
 * UInt8 query_kind = 1 | String initial_user | String initial_query_id | String initial_address
 * | [≥54449 Int64 initial_query_start_time_microseconds]
 * | UInt8 interface = 1 | String os_user | String client_hostname | String client_name
 * | VarUInt major | VarUInt minor | VarUInt client_revision
 * | [≥54060 String quota_key] | [≥54448 VarUInt distributed_depth = 0] | [≥54401 VarUInt patch]
 * | [≥54442 UInt8 has_trace (0, or 1 then {@link TraceContext})]
 * | [≥54453 VarUInt collaborate_with_initiator = 0 | VarUInt count_participating_replicas = 0
 *           | VarUInt number_of_current_replica = 0]
 * </pre>
 *
 * Fields whose gate is above the negotiated revision are not sent (the trace context included). The
 * always-zero fields are set only by servers forwarding a query to shards or replicas.
 *
 * @param initialUser usually empty (the server uses the Hello's user)
 * @param initialAddress an IP literal with port, see {@link InitialAddress}
 * @param clientRevision the revision the client announced in its Hello
 * @param trace null for none
 */
public record ClientInfo(
        String initialUser,
        String initialQueryId,
        String initialAddress,
        long initialQueryStartTimeMicros,
        String osUser,
        String clientHostname,
        String clientName,
        int versionMajor,
        int versionMinor,
        int versionPatch,
        int clientRevision,
        String quotaKey,
        TraceContext trace) {

    private static final int QUERY_KIND_INITIAL = 1;
    private static final int INTERFACE_TCP = 1;

    public ClientInfo {
        Objects.requireNonNull(initialUser, "initialUser");
        Objects.requireNonNull(initialQueryId, "initialQueryId");
        InitialAddress.requireLiteral(Objects.requireNonNull(initialAddress, "initialAddress"));
        Objects.requireNonNull(osUser, "osUser");
        Objects.requireNonNull(clientHostname, "clientHostname");
        Objects.requireNonNull(clientName, "clientName");
        Objects.requireNonNull(quotaKey, "quotaKey");
        if ((versionMajor | versionMinor | versionPatch | clientRevision) < 0) {
            throw new IllegalArgumentException("versions must not be negative");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Writes the client info for the negotiated revision (which must be at least 54032). */
    public void write(WireOutput out, int revision) {
        ProtocolRevision.requireSupported(revision, "ClientInfo");
        if (revision < DBMS_MIN_REVISION_WITH_CLIENT_INFO) {
            throw new IllegalArgumentException(
                    "ClientInfo is not sent at revision " + revision + " (needs 54032)");
        }
        out.writeByte(QUERY_KIND_INITIAL);
        out.writeString(initialUser);
        out.writeString(initialQueryId);
        out.writeString(initialAddress);
        if (revision >= DBMS_MIN_PROTOCOL_VERSION_WITH_INITIAL_QUERY_START_TIME) {
            out.writeInt64(initialQueryStartTimeMicros);
        }
        out.writeByte(INTERFACE_TCP);
        out.writeString(osUser);
        out.writeString(clientHostname);
        out.writeString(clientName);
        out.writeVarUInt(versionMajor);
        out.writeVarUInt(versionMinor);
        out.writeVarUInt(clientRevision);
        if (revision >= DBMS_MIN_REVISION_WITH_QUOTA_KEY_IN_CLIENT_INFO) {
            out.writeString(quotaKey);
        }
        if (revision >= DBMS_MIN_PROTOCOL_VERSION_WITH_DISTRIBUTED_DEPTH) {
            out.writeVarUInt(0); // distributed_depth: only servers forwarding to shards raise it
        }
        if (revision >= DBMS_MIN_REVISION_WITH_VERSION_PATCH) {
            out.writeVarUInt(versionPatch);
        }
        if (revision >= DBMS_MIN_REVISION_WITH_OPENTELEMETRY) {
            if (trace == null) {
                out.writeByte(0);
            } else {
                out.writeByte(1);
                trace.write(out);
            }
        }
        if (revision >= DBMS_MIN_REVISION_WITH_PARALLEL_REPLICAS) {
            // collaborate_with_initiator, count_participating_replicas, number_of_current_replica:
            // set only by a server handing work to replicas.
            out.writeVarUInt(0);
            out.writeVarUInt(0);
            out.writeVarUInt(0);
        }
    }

    /**
     * Builds a {@link ClientInfo}; everything but the address defaults to empty, zero, or (for the
     * client revision) {@link ProtocolRevision#CLIENT_REVISION}.
     */
    public static final class Builder {
        private String initialUser = "";
        private String initialQueryId = "";
        private String initialAddress;
        private long initialQueryStartTimeMicros;
        private String osUser = "";
        private String clientHostname = "";
        private String clientName = "";
        private int versionMajor;
        private int versionMinor;
        private int versionPatch;
        private int clientRevision = ProtocolRevision.CLIENT_REVISION;
        private String quotaKey = "";
        private TraceContext trace;

        private Builder() {}

        public Builder initialUser(String v) {
            initialUser = v;
            return this;
        }

        public Builder initialQueryId(String v) {
            initialQueryId = v;
            return this;
        }

        /** An IP literal with port; see {@link InitialAddress#format}. */
        public Builder initialAddress(String v) {
            initialAddress = v;
            return this;
        }

        public Builder initialQueryStartTimeMicros(long v) {
            initialQueryStartTimeMicros = v;
            return this;
        }

        public Builder osUser(String v) {
            osUser = v;
            return this;
        }

        public Builder clientHostname(String v) {
            clientHostname = v;
            return this;
        }

        public Builder clientName(String v) {
            clientName = v;
            return this;
        }

        public Builder version(int major, int minor, int patch) {
            versionMajor = major;
            versionMinor = minor;
            versionPatch = patch;
            return this;
        }

        public Builder clientRevision(int v) {
            clientRevision = v;
            return this;
        }

        public Builder quotaKey(String v) {
            quotaKey = v;
            return this;
        }

        public Builder trace(TraceContext v) {
            trace = v;
            return this;
        }

        public ClientInfo build() {
            return new ClientInfo(
                    initialUser,
                    initialQueryId,
                    initialAddress,
                    initialQueryStartTimeMicros,
                    osUser,
                    clientHostname,
                    clientName,
                    versionMajor,
                    versionMinor,
                    versionPatch,
                    clientRevision,
                    quotaKey,
                    trace);
        }
    }
}
