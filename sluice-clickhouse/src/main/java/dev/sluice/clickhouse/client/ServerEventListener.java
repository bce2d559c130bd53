package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.protocol.LogEntry;
import dev.sluice.clickhouse.protocol.ProfileEvent;
import dev.sluice.clickhouse.protocol.ProfileInfo;
import dev.sluice.clickhouse.protocol.Progress;
import java.util.List;

/**
 * Receives what the server reports about a running query besides its data, over the native protocol
 * ({@link NativeConnection#setServerEventListener}). Each packet arrives only at protocol revisions
 * that carry it: Progress and ProfileInfo always, Log from 54406 (sent while the query's {@code
 * send_logs_level} setting is not {@code none}; 18.16 has it), ProfileEvents from 54451 (INSERTs
 * from 54456; newer servers than 18.16).
 *
 * <p>Called on the thread running the query, between reads of the socket: keep it short. A listener
 * that throws ends the operation as a failure of the caller's own code would: a query is cancelled
 * and drained and the exception propagates; an INSERT cannot be taken back, so its connection is
 * dropped (blocks already sent may have been written) and the exception propagates.
 */
public interface ServerEventListener {

    /** A Progress packet: the increments since the previous one. */
    default void onProgress(String queryId, Progress increment) {}

    /** A ProfileInfo packet: totals of a result stream, near the end of a SELECT. */
    default void onProfileInfo(String queryId, ProfileInfo info) {}

    /** A Log packet: server log lines for the query. */
    default void onLog(String queryId, List<LogEntry> entries) {}

    /** A ProfileEvents packet: counters of the query's threads. */
    default void onProfileEvents(String queryId, List<ProfileEvent> events) {}
}
