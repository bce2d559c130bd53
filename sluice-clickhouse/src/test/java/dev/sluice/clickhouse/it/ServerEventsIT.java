package dev.sluice.clickhouse.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.client.QueryResult;
import dev.sluice.clickhouse.client.ServerEventListener;
import dev.sluice.clickhouse.protocol.LogEntry;
import dev.sluice.clickhouse.protocol.ProfileEvent;
import dev.sluice.clickhouse.protocol.ProfileInfo;
import dev.sluice.clickhouse.protocol.Progress;
import dev.sluice.clickhouse.protocol.ProtocolRevision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The listener on the 18.16 server: Progress, ProfileInfo and Log packets as it sends them for a
 * SELECT. 18.16 sends none of them during an INSERT, and ProfileEvents need revision 54451, which
 * it does not speak: NativeProtocolScriptTest pins those, byte for byte, on an INSERT.
 */
class ServerEventsIT {

    /** What one connection's listener saw. */
    private static final class Recorder implements ServerEventListener {
        final List<String> queryIds = new ArrayList<>();
        final List<Progress> progress = new ArrayList<>();
        final List<ProfileInfo> profiles = new ArrayList<>();
        final List<LogEntry> logs = new ArrayList<>();
        final List<ProfileEvent> events = new ArrayList<>();

        @Override
        public void onProgress(String queryId, Progress increment) {
            queryIds.add(queryId);
            progress.add(increment);
        }

        @Override
        public void onProfileInfo(String queryId, ProfileInfo info) {
            queryIds.add(queryId);
            profiles.add(info);
        }

        @Override
        public void onLog(String queryId, List<LogEntry> entries) {
            queryIds.add(queryId);
            logs.addAll(entries);
        }

        @Override
        public void onProfileEvents(String queryId, List<ProfileEvent> list) {
            events.addAll(list);
        }
    }

    @Test
    void aSelectReportsProgressProfileInfoAndServerLogs() {
        try (NativeConnection c = TestServer.connect()) {
            assertThat(c.revision())
                    .isGreaterThanOrEqualTo(ProtocolRevision.DBMS_MIN_REVISION_WITH_SERVER_LOGS);
            Recorder r = new Recorder();
            c.setServerEventListener(r);
            long[] rows = {0};
            QueryResult result =
                    c.query(
                            "SELECT number FROM system.numbers LIMIT 300000",
                            Map.of("send_logs_level", "trace", "max_block_size", "65536"),
                            b -> rows[0] += b.rows());
            assertThat(rows[0]).isEqualTo(300_000);
            assertThat(r.queryIds).isNotEmpty().allMatch(id -> id.equals(result.queryId()));
            // Increments: they add up to the query's total (whole blocks read: at least the rows).
            assertThat(r.progress.stream().mapToLong(Progress::readRows).sum())
                    .isEqualTo(result.progress().readRows())
                    .isGreaterThanOrEqualTo(300_000);
            assertThat(r.profiles).hasSize(1);
            assertThat(r.profiles.get(0).rows()).isEqualTo(300_000);
            assertThat(r.logs).isNotEmpty();
            assertThat(r.logs)
                    .allSatisfy(
                            e -> {
                                assertThat(e.queryId()).isEqualTo(result.queryId());
                                assertThat(e.priority()).isBetween(1, 8);
                                assertThat(e.text()).isNotEmpty();
                                assertThat(e.source()).isNotEmpty();
                                assertThat(e.threadId()).isPositive();
                                assertThat(e.eventTimeSeconds()).isPositive();
                            });
            assertThat(r.events).isEmpty();
            c.setServerEventListener(null);
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }

    /** A listener that throws ends the query like a failing consumer; the connection goes on. */
    @Test
    void aListenerThatThrowsCancelsTheQueryAndTheConnectionGoesOn() {
        try (NativeConnection c = TestServer.connect()) {
            c.setServerEventListener(
                    new ServerEventListener() {
                        @Override
                        public void onProgress(String queryId, Progress increment) {
                            throw new IllegalStateException("listener bug");
                        }
                    });
            assertThatThrownBy(
                            () -> c.query("SELECT number FROM system.numbers", Map.of(), b -> {}))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("listener bug");
            c.setServerEventListener(null);
            assertThat(c.isOpen()).isTrue();
            assertThat(c.queryRows("SELECT 1")).containsExactly(List.of(1L));
        }
    }
}
