package dev.sluice.clickhouse.client;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings every library INSERT carries on both transports, so that the server's acknowledgement
 * means the rows are written.
 *
 * <p>On servers with asynchronous inserts (21.11+), {@code async_insert} may be switched on for a
 * user or profile; an asynchronous insert is acknowledged once buffered (or, with {@code
 * wait_for_async_insert=0}, at once) and its deduplication tokens work differently. Library inserts
 * therefore send {@code async_insert=0} unless the caller set {@code async_insert} itself, in the
 * connection's settings or the insert's. Older servers do not know the setting and would reject it,
 * so it is not sent to them.
 */
public final class InsertSettings {
    static final String ASYNC_INSERT = "async_insert";

    private InsertSettings() {}

    /**
     * The per-insert settings to send: {@code perInsert}, plus {@code async_insert=0} when the
     * server has asynchronous inserts and neither map sets it.
     */
    public static Map<String, String> durable(
            ServerInfo server,
            Map<String, String> connectionSettings,
            Map<String, String> perInsert) {
        if (!server.supportsAsyncInsert()
                || perInsert.containsKey(ASYNC_INSERT)
                || connectionSettings.containsKey(ASYNC_INSERT)) {
            return perInsert;
        }
        Map<String, String> all = new LinkedHashMap<>(perInsert);
        all.put(ASYNC_INSERT, "0");
        return all;
    }
}
