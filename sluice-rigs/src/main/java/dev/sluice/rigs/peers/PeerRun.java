package dev.sluice.rigs.peers;

import dev.sluice.rigs.data.EventsData;
import java.nio.file.Path;

/**
 * What one insert of the peers rig runs against: the rows (in memory and as files), the table, and
 * where the server listens (the server itself, or the byte-counting proxy in front of it).
 *
 * @param host where to connect
 * @param nativePort the native protocol's port (or the proxy's in front of it)
 * @param httpPort the HTTP interface's port (or the proxy's)
 */
record PeerRun(
        EventsData data,
        PeerFiles files,
        String table,
        String host,
        int nativePort,
        int httpPort,
        String user,
        String password,
        String database,
        int blockRows,
        Path workDir) {

    /** The native URL without the password (for a command line: give it in the environment). */
    String nativeUrlWithoutPassword() {
        return "clickhouse://" + user + "@" + host + ":" + nativePort + "/" + database;
    }

    String nativeUrl() {
        return "clickhouse://"
                + user
                + (password.isEmpty() ? "" : ":" + password)
                + "@"
                + host
                + ":"
                + nativePort
                + "/"
                + database;
    }

    String httpUrl() {
        return "http://"
                + user
                + (password.isEmpty() ? "" : ":" + password)
                + "@"
                + host
                + ":"
                + httpPort
                + "/"
                + database;
    }
}
