package dev.sluice.clickhouse.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Deadlines on a loopback peer that accepts and then does nothing it is not told to. */
class GuardedSocketTest {
    private static final Duration NO_HANG = Duration.ofSeconds(60);

    private ServerSocket listener;
    private final CompletableFuture<Socket> peer = new CompletableFuture<>();

    @BeforeEach
    void listen() throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread t =
                new Thread(
                        () -> {
                            try {
                                peer.complete(listener.accept());
                            } catch (IOException e) {
                                peer.completeExceptionally(e);
                            }
                        },
                        "test-peer");
        t.setDaemon(true);
        t.start();
    }

    @AfterEach
    void stop() throws Exception {
        listener.close();
        if (peer.isDone() && !peer.isCompletedExceptionally()) {
            peer.get().close();
        }
    }

    private GuardedSocket connect(Duration open, Duration read, Duration write) throws IOException {
        return GuardedSocket.connect(
                "127.0.0.1",
                listener.getLocalPort(),
                new GuardedSocket.Timeouts(open, read, write),
                null);
    }

    private Socket peer() throws Exception {
        return peer.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aWriteThePeerNeverTakesEndsAtTheWriteTimeout() {
        assertTimeoutPreemptively(
                NO_HANG,
                () -> {
                    try (GuardedSocket s =
                            connect(
                                    Duration.ofSeconds(10),
                                    Duration.ZERO,
                                    Duration.ofMillis(500))) {
                        s.endOperation();
                        peer(); // accepted, never read
                        byte[] chunk = new byte[1 << 20];
                        assertThatThrownBy(
                                        () -> {
                                            while (true) {
                                                s.write(chunk, 0, chunk.length);
                                            }
                                        })
                                .isInstanceOf(SocketAbortedException.class)
                                .hasMessage(
                                        "ClickHouse at 127.0.0.1:"
                                                + listener.getLocalPort()
                                                + " took none of the data for 500 ms"
                                                + " (write_timeout)");
                        assertThat(s.abortReason()).contains("write_timeout");
                        assertThat(s.isClosed()).isTrue();
                    }
                });
    }

    @Test
    void anOperationPastItsDeadlineIsAbortedEvenWhileReading() {
        assertTimeoutPreemptively(
                NO_HANG,
                () -> {
                    try (GuardedSocket s =
                            connect(
                                    Duration.ofSeconds(10),
                                    Duration.ofSeconds(60),
                                    Duration.ofSeconds(60))) {
                        s.endOperation();
                        s.beginOperation(Duration.ofMillis(300), "not finished within 300 ms");
                        InputStream in = s.input();
                        assertThatThrownBy(in::read)
                                .isInstanceOf(SocketAbortedException.class)
                                .hasMessage("not finished within 300 ms");
                        assertThatThrownBy(() -> s.write(new byte[1], 0, 1))
                                .isInstanceOf(SocketAbortedException.class)
                                .hasMessage("not finished within 300 ms");
                    }
                });
    }

    @Test
    void theOpenDeadlineAlsoBoundsTheCallersHandshake() {
        assertTimeoutPreemptively(
                NO_HANG,
                () -> {
                    try (GuardedSocket s =
                            connect(
                                    Duration.ofMillis(300),
                                    Duration.ofSeconds(60),
                                    Duration.ofSeconds(60))) {
                        // No endOperation(): the handshake's read is still under the open deadline.
                        assertThatThrownBy(() -> s.input().read())
                                .isInstanceOf(SocketAbortedException.class)
                                .hasMessageContaining("within 300 ms (connect_timeout");
                    }
                });
    }

    @Test
    void anOperationEndedInTimeLeavesTheSocketAlone() throws Exception {
        try (GuardedSocket s =
                connect(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10))) {
            s.endOperation();
            s.beginOperation(Duration.ofMillis(50), "too late");
            s.endOperation();
            Thread.sleep(300);
            s.write(new byte[] {42}, 0, 1);
            Socket p = peer();
            assertThat(p.getInputStream().read()).isEqualTo(42);
            p.getOutputStream().write(7);
            assertThat(s.input().read()).isEqualTo(7);
            assertThat(s.abortReason()).isNull();
        }
    }

    @Test
    void anAbortFromAnotherThreadEndsABlockedReadWithItsReason() {
        assertTimeoutPreemptively(
                NO_HANG,
                () -> {
                    try (GuardedSocket s =
                            connect(Duration.ofSeconds(10), Duration.ZERO, Duration.ZERO)) {
                        s.endOperation();
                        CompletableFuture.runAsync(
                                () -> {
                                    try {
                                        Thread.sleep(200);
                                    } catch (InterruptedException e) {
                                        Thread.currentThread().interrupt();
                                    }
                                    s.abort("cancelled by thread 'other'");
                                });
                        assertThatThrownBy(() -> s.input().read())
                                .isInstanceOf(SocketAbortedException.class)
                                .hasMessage("cancelled by thread 'other'");
                    }
                });
    }

    @Test
    void pendingInputAndIdleLiveness() throws Exception {
        try (GuardedSocket s =
                connect(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10))) {
            s.endOperation();
            Socket p = peer();
            assertThat(s.inputPending()).isFalse();
            assertThat(s.stillOpenWhileIdle()).isTrue();
            p.getOutputStream().write(new byte[] {1, 2, 3});
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!s.inputPending() && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(s.inputPending()).isTrue();
            assertThat(s.stillOpenWhileIdle()).as("unasked bytes: not reusable").isFalse();
            byte[] three = s.input().readNBytes(3);
            assertThat(three).containsExactly(1, 2, 3);
            p.close();
            until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean open = true;
            while (open && System.nanoTime() < until) {
                open = s.stillOpenWhileIdle();
                Thread.sleep(5);
            }
            assertThat(open).as("a socket the peer closed is not reused").isFalse();
        }
    }

    @Test
    void aRefusedConnectionIsAnIoErrorAndATimeoutSaysSo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThatThrownBy(
                        () ->
                                GuardedSocket.connect(
                                        "127.0.0.1",
                                        port,
                                        new GuardedSocket.Timeouts(
                                                Duration.ofSeconds(5),
                                                Duration.ZERO,
                                                Duration.ZERO),
                                        null))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(SocketTimeoutException.class);
        // A TLS layer that never completes its handshake: the open deadline ends it.
        assertTimeoutPreemptively(
                NO_HANG,
                () ->
                        assertThatThrownBy(
                                        () ->
                                                GuardedSocket.connect(
                                                        "127.0.0.1",
                                                        listener.getLocalPort(),
                                                        new GuardedSocket.Timeouts(
                                                                Duration.ofMillis(300),
                                                                Duration.ZERO,
                                                                Duration.ZERO),
                                                        tcp -> {
                                                            tcp.setSoTimeout(0);
                                                            tcp.getInputStream().read();
                                                            return tcp;
                                                        }))
                                .isInstanceOf(SocketTimeoutException.class)
                                .hasMessageContaining("within 300 ms (connect_timeout"));
    }
}
