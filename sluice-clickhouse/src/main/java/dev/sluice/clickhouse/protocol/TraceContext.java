package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.Objects;

/**
 * A W3C trace context the server attaches its query spans to (ClientInfo, revision 54442 and up).
 *
 * <pre>
 * 16 B trace_id | 8 B span_id | String tracestate | UInt8 trace_flags
 * </pre>
 *
 * ClickHouse stores the trace id as a UUID and the span id as a UInt64 and writes both in its
 * in-memory layout: each 8-byte half little-endian, high half first. So the trace id {@code
 * 0102..0f10} goes out as {@code 08 07 .. 01 10 0f .. 09}: {@link #traceIdHigh} is the first 16 hex
 * digits of the W3C form, {@link #traceIdLow} the last 16, {@link #spanId} the 16 digits of the
 * parent id.
 *
 * @param traceState the W3C {@code tracestate} header value, possibly empty
 * @param traceFlags the W3C flags byte (bit 0: sampled)
 */
public record TraceContext(
        long traceIdHigh, long traceIdLow, long spanId, String traceState, int traceFlags) {

    public TraceContext {
        // An all-zero trace id is "no trace" both in W3C and in ClickHouse, which then writes the
        // has-trace byte as 0; refuse it rather than send a context the server would drop.
        if (traceIdHigh == 0 && traceIdLow == 0) {
            throw new IllegalArgumentException("trace id must not be all zeros");
        }
        Objects.requireNonNull(traceState, "traceState");
        if (traceFlags < 0 || traceFlags > 0xFF) {
            throw new IllegalArgumentException("traceFlags must fit a byte: " + traceFlags);
        }
    }

    void write(WireOutput out) {
        out.writeInt64(traceIdHigh);
        out.writeInt64(traceIdLow);
        out.writeInt64(spanId);
        out.writeString(traceState);
        out.writeByte(traceFlags);
    }
}
