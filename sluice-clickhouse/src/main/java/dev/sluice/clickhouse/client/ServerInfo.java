package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.protocol.ServerHello;

/**
 * What the server said about itself in its Hello, and the revision both sides speak.
 *
 * @param revision the negotiated protocol revision: the lower of ours and the server's
 */
public record ServerInfo(
        String name,
        int versionMajor,
        int versionMinor,
        int versionPatch,
        int serverRevision,
        int revision,
        String timezone,
        String displayName) {

    static ServerInfo from(ServerHello hello, int negotiated) {
        return new ServerInfo(
                hello.name(),
                hello.versionMajor(),
                hello.versionMinor(),
                hello.versionPatch(),
                hello.revision(),
                negotiated,
                hello.timezone(),
                hello.displayName());
    }

    /** e.g. {@code 18.16.1}; the patch is unknown (0) below revision 54401. */
    public String version() {
        return versionMajor + "." + versionMinor + "." + versionPatch;
    }

    /** True when the server version is at least {@code major.minor}. */
    public boolean atLeast(int major, int minor) {
        return versionMajor > major || (versionMajor == major && versionMinor >= minor);
    }

    /** {@code async_insert} arrived in 21.11. */
    public boolean supportsAsyncInsert() {
        return atLeast(21, 11);
    }

    /** {@code insert_deduplication_token} arrived in 22.2. */
    public boolean supportsInsertDeduplicationToken() {
        return atLeast(22, 2);
    }

    @Override
    public String toString() {
        return name
                + " "
                + version()
                + " (revision "
                + serverRevision
                + ", speaking "
                + revision
                + ")";
    }
}
