package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.Objects;

/**
 * What the client sends right after receiving {@link ServerHello}, without a packet code.
 *
 * <pre>
 * [≥54458 String quota_key]
 * </pre>
 *
 * Below 54458 nothing is sent (the quota key then travels only in {@link ClientInfo}). Later
 * revisions append chunked-framing capabilities (54470) and a parallel-replicas version (54471).
 */
public record Addendum(String quotaKey) {

    public Addendum {
        Objects.requireNonNull(quotaKey, "quotaKey");
    }

    /** Writes the addendum for the negotiated revision; writes nothing below 54458. */
    public void write(WireOutput out, int revision) {
        ProtocolRevision.requireSupported(revision, "Addendum");
        if (revision >= ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_QUOTA_KEY) {
            out.writeString(quotaKey);
        }
    }
}
