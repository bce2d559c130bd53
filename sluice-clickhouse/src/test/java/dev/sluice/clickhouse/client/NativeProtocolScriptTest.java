package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.protocol.LogEntry;
import dev.sluice.clickhouse.protocol.ProfileEvent;
import dev.sluice.clickhouse.protocol.Progress;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The native connection against scripted server bytes: what needs a newer server than the 18.16
 * test server (revision 54460, a server with async inserts, ProfileEvents) or a fault at an exact
 * point of the handshake.
 */
class NativeProtocolScriptTest {
    private static final int REVISION = 54460;

    /** The Data packet with the INSERT header block {@code x UInt8}, no rows, at 54460. */
    private static final String HEADER_X_UINT8 =
            "01" // Data
                    + "00" // table name ""
                    + "0100" // BlockInfo field 1: is_overflows = false
                    + "02ffffffff" // field 2: bucket_num = -1
                    + "00" // end of BlockInfo
                    + "01" // 1 column
                    + "00" // 0 rows
                    + "0178" // name "x"
                    + "0555496e7438" // type "UInt8"
                    + "00"; // no custom serialization (>= 54454)

    private static byte[] script(int major, int minor, int revision, String... packetsHex) {
        WireOutput out = new WireOutput(256);
        ScriptedServer.hello(out, major, minor, revision);
        for (String p : packetsHex) {
            out.writeBytes(HexFormat.of().parseHex(p));
        }
        return out.toByteArray();
    }

    /** String {@code s} as the wire writes it: VarUInt length, then the bytes (here < 128). */
    private static String str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return String.format("%02x", b.length) + HexFormat.of().formatHex(b);
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** {@code async_insert = '0'}, flagged important: the settings layout at 54429 and above. */
    private static final byte[] ASYNC_INSERT_0 =
            HexFormat.of().parseHex(str("async_insert") + "01" + str("0"));

    @Test
    void libraryInsertsTurnAsyncInsertOffOnServersThatHaveIt() throws Exception {
        try (ScriptedServer server = new ScriptedServer(script(23, 8, REVISION, HEADER_X_UINT8));
                NativeConnection c = NativeConnection.open(server.config("compression=none"))) {
            assertThat(c.server().supportsAsyncInsert()).isTrue();
            c.insert("t", List.of(), Map.of()).close(); // drops the connection: nothing written
            byte[] sent = server.receivedUntilClosed(10);
            assertThat(contains(sent, ASYNC_INSERT_0)).as("async_insert=0 in the Query").isTrue();
        }
    }

    @Test
    void theCallersAsyncInsertIsKept() throws Exception {
        try (ScriptedServer server = new ScriptedServer(script(23, 8, REVISION, HEADER_X_UINT8));
                NativeConnection c = NativeConnection.open(server.config("compression=none"))) {
            c.insert("t", List.of(), Map.of("async_insert", "1")).close();
            byte[] sent = server.receivedUntilClosed(10);
            assertThat(contains(sent, ASYNC_INSERT_0)).isFalse();
            assertThat(
                            contains(
                                    sent,
                                    HexFormat.of().parseHex(str("async_insert") + "01" + str("1"))))
                    .isTrue();
        }
        // ... and so is a connection-wide setting.
        try (ScriptedServer server = new ScriptedServer(script(23, 8, REVISION, HEADER_X_UINT8));
                NativeConnection c =
                        NativeConnection.open(server.config("compression=none&async_insert=1"))) {
            c.insert("t", List.of(), Map.of()).close();
            assertThat(contains(server.receivedUntilClosed(10), ASYNC_INSERT_0)).isFalse();
        }
    }

    @Test
    void serversWithoutAsyncInsertAreNotSentIt() throws Exception {
        try (ScriptedServer server = new ScriptedServer(script(21, 8, REVISION, HEADER_X_UINT8));
                NativeConnection c = NativeConnection.open(server.config("compression=none"))) {
            assertThat(c.server().supportsAsyncInsert()).isFalse();
            c.insert("t", List.of(), Map.of()).close();
            byte[] sent = server.receivedUntilClosed(10);
            assertThat(contains(sent, str("async_insert").getBytes(StandardCharsets.ISO_8859_1)))
                    .isFalse();
            assertThat(contains(sent, "async_insert".getBytes(StandardCharsets.US_ASCII)))
                    .isFalse();
        }
    }

    /**
     * The addendum (a revision 54458+ handshake's last step) fails to send: the open fails with a
     * connection error and the socket is closed — the server sees the connection end — instead of
     * being left open with its compression context.
     */
    @Test
    void aFailedHandshakeAddendumClosesTheSocket() throws Exception {
        try (ScriptedServer server = new ScriptedServer(script(23, 8, REVISION))) {
            // A connect timeout far beyond the wait below: its timer must not be what closes it.
            ConnectionConfig cfg = server.config("compression=zstd&connect_timeout=120s");
            // The first write is the Hello; the second, the addendum, fails.
            assertThatThrownBy(() -> NativeConnection.open(cfg, tcp -> new FailingWrites(tcp, 1)))
                    .isInstanceOf(ConnectionException.class)
                    .hasMessageContaining("addendum")
                    .hasMessageContaining(cfg.address());
            byte[] sent = server.receivedUntilClosed(5);
            assertThat(sent).isNotEmpty(); // the Hello, then the end of the connection
        }
    }

    /**
     * ProfileEvents (54451+) and Log packets in their current layouts, byte for byte: the listener
     * gets them decoded, with the query id, and the INSERT still gets its header.
     */
    @Test
    void profileEventsAndLogsAtRevision54460ReachTheListener() throws Exception {
        String profileEvents =
                "0e" // ProfileEvents
                        + "00" // ""
                        + "0100"
                        + "02ffffffff"
                        + "00" // BlockInfo
                        + "06" // 6 columns
                        + "01" // 1 row
                        + str("host_name")
                        + str("String")
                        + "00"
                        + str("h1")
                        + str("current_time")
                        + str("DateTime")
                        + "00"
                        + "00e1f505" // 100000000
                        + str("thread_id")
                        + str("UInt64")
                        + "00"
                        + "2a00000000000000" // 42
                        + str("type")
                        + str("Int8")
                        + "00"
                        + "01" // increment
                        + str("name")
                        + str("String")
                        + "00"
                        + str("InsertedRows")
                        + str("value")
                        + str("Int64")
                        + "00"
                        + "feffffffffffffff"; // -2
        String log =
                "0a" // Log
                        + "00" // ""
                        + "0100"
                        + "02ffffffff"
                        + "00"
                        + "08" // 8 columns
                        + "01"
                        + str("event_time")
                        + str("DateTime")
                        + "00"
                        + "01000000"
                        + str("event_time_microseconds")
                        + str("UInt32")
                        + "00"
                        + "07000000"
                        + str("host_name")
                        + str("String")
                        + "00"
                        + str("h1")
                        + str("query_id")
                        + str("String")
                        + "00"
                        + str("q1")
                        + str("thread_id")
                        + str("UInt64")
                        + "00"
                        + "0900000000000000"
                        + str("priority")
                        + str("Int8")
                        + "00"
                        + "08"
                        + str("source")
                        + str("String")
                        + "00"
                        + str("executeQuery")
                        + str("text")
                        + str("String")
                        + "00"
                        + str("hello");
        String progress = "03" + "05" + "06" + "07" + "08" + "09" + "0a"; // 54460: 6 fields
        List<Object> seen = new ArrayList<>();
        try (ScriptedServer server =
                        new ScriptedServer(
                                script(
                                        23,
                                        8,
                                        REVISION,
                                        profileEvents,
                                        log,
                                        progress,
                                        HEADER_X_UINT8));
                NativeConnection c = NativeConnection.open(server.config("compression=none"))) {
            c.setServerEventListener(
                    new ServerEventListener() {
                        @Override
                        public void onProfileEvents(String queryId, List<ProfileEvent> events) {
                            seen.add(queryId);
                            seen.addAll(events);
                        }

                        @Override
                        public void onLog(String queryId, List<LogEntry> entries) {
                            seen.addAll(entries);
                        }

                        @Override
                        public void onProgress(String queryId, Progress increment) {
                            seen.add(increment);
                        }
                    });
            Insert insert =
                    c.insert("t", List.of(), Map.of(), InsertOptions.DEFAULTS.withQueryId("qid-7"));
            assertThat(insert.block().column(0).name()).isEqualTo("x");
            insert.close();
        }
        assertThat(seen)
                .containsExactly(
                        "qid-7",
                        new ProfileEvent(
                                "h1",
                                100_000_000L,
                                42,
                                ProfileEvent.Type.INCREMENT,
                                "InsertedRows",
                                -2),
                        new LogEntry(1, 7, "h1", "q1", 9, 8, "executeQuery", "hello"),
                        new Progress(5, 6, 7, 0, 8, 9, 10));
    }

    /**
     * A listener that throws during an INSERT: the insert cannot be taken back, so the connection
     * is dropped, and the listener's exception is what the caller gets.
     */
    @Test
    void aListenerThatThrowsDuringAnInsertDropsTheConnection() throws Exception {
        String progress = "03" + "01" + "02" + "03" + "04" + "05" + "06";
        try (ScriptedServer server =
                        new ScriptedServer(script(23, 8, REVISION, progress, HEADER_X_UINT8));
                NativeConnection c = NativeConnection.open(server.config("compression=none"))) {
            c.setServerEventListener(
                    new ServerEventListener() {
                        @Override
                        public void onProgress(String queryId, Progress increment) {
                            throw new IllegalArgumentException("listener bug");
                        }
                    });
            assertThatThrownBy(() -> c.insert("t", List.of(), Map.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("listener bug");
            assertThat(c.isOpen()).isFalse();
            assertThat(server.receivedUntilClosed(10)).isNotEmpty(); // the socket was closed
        }
    }

    /** Below 54451 a ProfileEvents packet cannot come: the stream is out of step. */
    @Test
    void profileEventsBelowTheirRevisionAreAProtocolError() throws Exception {
        // 18.16's revision, with a ProfileEvents packet it would never send.
        String profileEvents = "0e" + "00" + "0100" + "02ffffffff" + "00" + "00" + "00";
        try (ScriptedServer server = new ScriptedServer(script(18, 16, 54412, profileEvents));
                NativeConnection c = NativeConnection.open(server.config("compression=none"))) {
            assertThatThrownBy(() -> c.insert("t", List.of(), Map.of()))
                    .isInstanceOf(ProtocolException.class)
                    .hasMessageContaining("PROFILE_EVENTS")
                    .hasMessageContaining("revision 54412");
            assertThat(c.isOpen()).isFalse();
        }
    }

    /** A TCP socket whose writes fail after the first {@code allowed} ones. */
    private static final class FailingWrites extends Socket {
        private final Socket tcp;
        private int allowed;

        FailingWrites(Socket tcp, int allowed) {
            this.tcp = tcp;
            this.allowed = allowed;
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return tcp.getInputStream();
        }

        @Override
        public OutputStream getOutputStream() throws IOException {
            OutputStream real = tcp.getOutputStream();
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (allowed-- <= 0) {
                        throw new SocketException("injected write failure");
                    }
                    real.write(b, off, len);
                }
            };
        }

        @Override
        public void setSoTimeout(int timeout) throws SocketException {
            tcp.setSoTimeout(timeout);
        }

        @Override
        public int getSoTimeout() throws SocketException {
            return tcp.getSoTimeout();
        }

        @Override
        public SocketAddress getLocalSocketAddress() {
            return tcp.getLocalSocketAddress();
        }

        @Override
        public boolean isClosed() {
            return tcp.isClosed();
        }

        @Override
        public void close() throws IOException {
            tcp.close();
        }
    }
}
