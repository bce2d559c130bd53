package dev.sluice.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.net.GuardedSocket;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP/1.1 framing against a loopback peer that plays the server's part byte for byte. */
class HttpExchangeTest {
    private ServerSocket listener;
    private final CompletableFuture<Socket> peer = new CompletableFuture<>();
    private GuardedSocket socket;

    @BeforeEach
    void connect() throws IOException {
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
                        "http-peer");
        t.setDaemon(true);
        t.start();
        socket =
                GuardedSocket.connect(
                        "127.0.0.1",
                        listener.getLocalPort(),
                        new GuardedSocket.Timeouts(
                                Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ZERO),
                        null);
        socket.endOperation();
    }

    @AfterEach
    void close() throws Exception {
        socket.close();
        listener.close();
        peer.get(10, TimeUnit.SECONDS).close();
    }

    private void serverSends(String bytes) throws Exception {
        OutputStream out = peer.get(10, TimeUnit.SECONDS).getOutputStream();
        out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private String serverReads(int n) throws Exception {
        byte[] b = peer.get(10, TimeUnit.SECONDS).getInputStream().readNBytes(n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static String body(HttpResponse r) throws IOException {
        return new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void aChunkedRequestGoesOutByteForByte() throws Exception {
        HttpExchange x = new HttpExchange(socket);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "db:8123");
        x.sendHead("POST", "/?query=INSERT", headers, null);
        try (OutputStream body = x.chunkedBody()) {
            body.write("hello".getBytes(StandardCharsets.US_ASCII));
            body.write(new byte[0]);
            body.write("0123456789abcdefg".getBytes(StandardCharsets.US_ASCII));
        }
        String expected =
                "POST /?query=INSERT HTTP/1.1\r\nHost: db:8123\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n"
                        + "11\r\n0123456789abcdefg\r\n"
                        + "0\r\n\r\n";
        assertThat(serverReads(expected.length())).isEqualTo(expected);
    }

    @Test
    void aFixedBodyCarriesItsLength() throws Exception {
        new HttpExchange(socket)
                .sendHead("POST", "/", Map.of(), "SELECT 1".getBytes(StandardCharsets.UTF_8));
        String expected = "POST / HTTP/1.1\r\nContent-Length: 8\r\n\r\nSELECT 1";
        assertThat(serverReads(expected.length())).isEqualTo(expected);
    }

    @Test
    void aChunkedResponseAfterA100ContinueWithExtensionsAndTrailers() throws Exception {
        serverSends(
                "HTTP/1.1 100 Continue\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\n"
                        + "transfer-encoding: chunked\r\n"
                        + "X-ClickHouse-Query-Id: q1\r\n"
                        + "Keep-Alive: timeout=10\r\n"
                        + "\r\n"
                        + "3;ext=1\r\nabc\r\n"
                        + "A\r\n0123456789\r\n"
                        + "0\r\nTrailer: x\r\n\r\n");
        HttpExchange x = new HttpExchange(socket);
        HttpResponse r = x.readResponse();
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("x-clickhouse-query-id")).isEqualTo("q1");
        assertThat(r.keepAliveMillis()).isEqualTo(9000);
        assertThat(body(r)).isEqualTo("abc0123456789");
        assertThat(x.cleanEnd()).isTrue();
    }

    @Test
    void aContentLengthResponseAndConnectionClose() throws Exception {
        serverSends(
                "HTTP/1.1 500 Internal Server Error\r\n"
                        + "Content-Length: 11\r\n"
                        + "Connection: close\r\n"
                        + "X-ClickHouse-Exception-Code: 60\r\n\r\n"
                        + "Code: 60. xEXTRA");
        HttpResponse r = new HttpExchange(socket).readResponse();
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.keepAliveMillis()).isZero();
        assertThat(body(r)).isEqualTo("Code: 60. x");
    }

    @Test
    void aResponseWithoutFramingEndsWhenTheServerCloses() throws Exception {
        serverSends("HTTP/1.0 200 OK\r\n\r\nall of it");
        peer.get().shutdownOutput();
        HttpResponse r = new HttpExchange(socket).readResponse();
        assertThat(r.keepAliveMillis()).isZero();
        assertThat(body(r)).isEqualTo("all of it");
    }

    @Test
    void badResponsesAreClearErrors() throws Exception {
        serverSends("SSH-2.0-OpenSSH\r\n");
        assertThatThrownBy(() -> new HttpExchange(socket).readResponse())
                .isInstanceOf(IOException.class)
                .hasMessage("not an HTTP response: SSH-2.0-OpenSSH");
    }

    @Test
    void aBadChunkSizeIsAnError() throws Exception {
        serverSends("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
        HttpResponse r = new HttpExchange(socket).readResponse();
        assertThatThrownBy(() -> r.body().read())
                .isInstanceOf(IOException.class)
                .hasMessage("bad chunk size in the HTTP response: zz");
    }

    @Test
    void aTruncatedChunkIsAnEndOfStream() throws Exception {
        serverSends("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort");
        peer.get().shutdownOutput();
        HttpResponse r = new HttpExchange(socket).readResponse();
        assertThatThrownBy(() -> r.body().readAllBytes())
                .isInstanceOf(EOFException.class)
                .hasMessageContaining("ends early");
    }

    @Test
    void aConnectionClosedWithoutAnswerSaysSo() throws Exception {
        peer.get(10, TimeUnit.SECONDS).shutdownOutput();
        HttpExchange x = new HttpExchange(socket);
        assertThatThrownBy(x::readResponse)
                .isInstanceOf(EOFException.class)
                .hasMessage("the server closed the connection without answering");
        assertThat(x.responseStarted()).isFalse();
    }

    @Test
    void anAnswerBeforeTheBodyIsCompleteStopsTheBody() throws Exception {
        HttpExchange x = new HttpExchange(socket);
        x.sendHead("POST", "/", Map.of(), null);
        serverSends("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno");
        OutputStream body = x.chunkedBody();
        byte[] chunk = new byte[1024];
        assertThatThrownBy(
                        () -> {
                            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                            while (System.nanoTime() < until) {
                                body.write(chunk);
                                Thread.sleep(5);
                            }
                        })
                .isInstanceOf(HttpExchange.EarlyResponse.class);
        HttpResponse r = x.readResponse();
        assertThat(r.status()).isEqualTo(404);
        assertThat(body(r)).isEqualTo("no");
    }
}
