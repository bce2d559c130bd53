package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.Objects;

/**
 * The first packet of a connection.
 *
 * <pre>
 * VarUInt 0 (Hello) | String client_name | VarUInt major | VarUInt minor | VarUInt revision
 * | String database | String user | String password
 * </pre>
 *
 * No field is revision-gated: this packet announces the revision. {@link #toString()} masks the
 * password, and no exception message here contains it.
 *
 * @param revision the protocol revision the client announces, normally {@link
 *     ProtocolRevision#CLIENT_REVISION}
 * @param database the default database; empty for the user's default
 */
public record ClientHello(
        String clientName,
        int versionMajor,
        int versionMinor,
        int revision,
        String database,
        String user,
        String password) {

    public ClientHello {
        requireNonNegative(versionMajor, "versionMajor");
        requireNonNegative(versionMinor, "versionMinor");
        requireNonNegative(revision, "revision");
        requireNoControlCharacters(clientName, "clientName");
        requireNoControlCharacters(database, "database");
        requireNoControlCharacters(user, "user");
        requireNoControlCharacters(password, "password");
        // The server rejects a Hello without a user ("no user in Hello package").
        if (user.isEmpty()) {
            throw new IllegalArgumentException(
                    "user must not be empty (ClickHouse's is 'default')");
        }
    }

    /** Writes the packet, code included. */
    public void write(WireOutput out) {
        ClientPacketType.HELLO.write(out);
        out.writeString(clientName);
        out.writeVarUInt(versionMajor);
        out.writeVarUInt(versionMinor);
        out.writeVarUInt(revision);
        out.writeString(database);
        out.writeString(user);
        out.writeString(password);
    }

    @Override
    public String toString() {
        return "ClientHello[clientName="
                + clientName
                + ", version="
                + versionMajor
                + "."
                + versionMinor
                + ", revision="
                + revision
                + ", database="
                + database
                + ", user="
                + user
                + ", password="
                + (password.isEmpty() ? "<empty>" : "<hidden>")
                + "]";
    }

    private static void requireNonNegative(int value, String what) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must not be negative: " + value);
        }
    }

    // ClickHouse's own client refuses bytes 0..31 here. The message names the field, never its
    // value (it may be the password).
    private static void requireNoControlCharacters(String value, String what) {
        Objects.requireNonNull(value, what);
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < 0x20) {
                throw new IllegalArgumentException(
                        what
                                + " must not contain ASCII control characters (found at index "
                                + i
                                + ")");
            }
        }
    }
}
