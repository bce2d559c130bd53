package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireInput;

/**
 * The session time zone changed ({@code SET session_timezone}). Sent only to clients of revision
 * 54464 and up, so never to this one; read so that a stray packet can be skipped cleanly.
 *
 * <pre>
 * String timezone
 * </pre>
 */
public record TimezoneUpdate(String timezone) {

    /** Reads the body after the packet code. */
    public static TimezoneUpdate read(WireInput in, int revision) {
        return new TimezoneUpdate(in.readString());
    }
}
