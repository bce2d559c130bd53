package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.net.GuardedSocket;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 request and its response over a {@link GuardedSocket}: just what ClickHouse's HTTP
 * interface needs (a POST with a fixed or chunked body; a response with {@code Content-Length},
 * chunked, or read-to-close body), so that every wait is under the socket's deadlines and a cancel
 * or deadline can close the socket from another thread at any point — which the JDK's {@code
 * HttpURLConnection} cannot do (its stream locks make a disconnect from another thread wait for the
 * very read it should end).
 */
final class HttpExchange {
    private static final int MAX_HEAD_BYTES = 64 << 10;
    private static final byte[] CRLF = {'\r', '\n'};

    private final GuardedSocket socket;
    private final InputStream in;
    private boolean responseStarted;

    HttpExchange(GuardedSocket socket) {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.input(), 16 << 10);
    }

    GuardedSocket socket() {
        return socket;
    }

    /** Whether any byte of the response arrived (a failure before that means nothing was read). */
    boolean responseStarted() {
        return responseStarted;
    }

    /**
     * Sends the request line and headers, then {@code body} when it is not null (with a {@code
     * Content-Length}); with a null body the request announces a chunked body that {@link
     * #chunkedBody()} writes.
     */
    void sendHead(String method, String target, Map<String, String> headers, byte[] body)
            throws IOException {
        StringBuilder head = new StringBuilder(256 + target.length());
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        for (Map.Entry<String, String> h : headers.entrySet()) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        } else if (!method.equals("GET")) {
            head.append("Transfer-Encoding: chunked\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.UTF_8);
        if (body == null || body.length == 0) {
            socket.write(headBytes, 0, headBytes.length);
            return;
        }
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        socket.write(all, 0, all.length);
    }

    /**
     * The chunked request body. Before each chunk it looks whether the server already answered
     * (ClickHouse answers an INSERT it cannot run — unknown table, a failing block — while the body
     * is still coming, then stops reading): it then stops with an {@link EarlyResponse} instead of
     * pushing the rest into a socket nobody reads. Closing it ends the body.
     */
    OutputStream chunkedBody() {
        return new ChunkedOutput();
    }

    /** The server answered before the request body was complete. */
    static final class EarlyResponse extends IOException {
        private static final long serialVersionUID = 1L;

        EarlyResponse() {
            super("the server answered before the request body was complete");
        }
    }

    private final class ChunkedOutput extends OutputStream {
        private boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("the request body is already complete");
            }
            if (len == 0) {
                return;
            }
            if (socket.inputPending()) {
                throw new EarlyResponse();
            }
            byte[] size = (Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            socket.write(size, 0, size.length);
            socket.write(b, off, len);
            socket.write(CRLF, 0, 2);
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                byte[] last = {'0', '\r', '\n', '\r', '\n'};
                socket.write(last, 0, last.length);
            }
        }
    }

    /** Reads the status line and headers (skipping 1xx answers); the body follows. */
    HttpResponse readResponse() throws IOException {
        while (true) {
            String status = readLine(true);
            responseStarted = true;
            String[] parts = status.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP response: " + abbreviate(status));
            }
            int code;
            try {
                code = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                throw new IOException("not an HTTP status: " + abbreviate(status));
            }
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            int headBytes = status.length();
            while (true) {
                String line = readLine(false);
                headBytes += line.length() + 2;
                if (headBytes > MAX_HEAD_BYTES) {
                    throw new IOException("HTTP response head longer than " + MAX_HEAD_BYTES);
                }
                if (line.isEmpty()) {
                    break;
                }
                int colon = line.indexOf(':');
                if (colon > 0) {
                    String name = line.substring(0, colon).trim();
                    String value = line.substring(colon + 1).trim();
                    headers.merge(name, value, (a, b) -> a + ", " + b);
                }
            }
            if (code >= 100 && code < 200) {
                continue; // 100 Continue and friends: the real answer follows
            }
            boolean http11 = parts[0].equals("HTTP/1.1");
            return new HttpResponse(code, headers, body(headers), keepAlive(http11, headers));
        }
    }

    private InputStream body(Map<String, String> headers) throws IOException {
        String te = headers.get("Transfer-Encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            return new ChunkedInput(in);
        }
        String length = headers.get("Content-Length");
        if (length != null) {
            try {
                return new FixedInput(in, Long.parseLong(length.trim()));
            } catch (NumberFormatException e) {
                throw new IOException("bad Content-Length: " + length);
            }
        }
        return in; // until the server closes the connection
    }

    /** Whether the socket may serve another request, and for how long (ms) it may wait idle. */
    private static long keepAlive(boolean http11, Map<String, String> headers) {
        String connection = headers.getOrDefault("Connection", "").toLowerCase(Locale.ROOT);
        boolean framed =
                headers.containsKey("Content-Length")
                        || headers.getOrDefault("Transfer-Encoding", "")
                                .toLowerCase(Locale.ROOT)
                                .contains("chunked");
        if (!framed
                || connection.contains("close")
                || (!http11 && !connection.contains("keep-alive"))) {
            return 0;
        }
        long timeoutMillis = 3000; // ClickHouse's default keep_alive_timeout
        String ka = headers.get("Keep-Alive");
        if (ka != null) {
            for (String part : ka.split(",")) {
                String p = part.trim().toLowerCase(Locale.ROOT);
                if (p.startsWith("timeout=")) {
                    try {
                        timeoutMillis = Long.parseLong(p.substring(8).trim()) * 1000;
                    } catch (NumberFormatException ignored) {
                        // keep the default
                    }
                }
            }
        }
        // Reuse well before the server's idle timeout, so that it never closes a socket we picked.
        return Math.max(0, timeoutMillis - 1000);
    }

    /**
     * After the body's end: true when no byte beyond the response arrived (the socket is clean).
     */
    boolean cleanEnd() throws IOException {
        return in.available() == 0;
    }

    private String readLine(boolean first) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (first && line.size() == 0) {
                    throw new EOFException("the server closed the connection without answering");
                }
                throw new EOFException("the HTTP response head ends early");
            }
            if (b == '\n') {
                break;
            }
            if (line.size() >= MAX_HEAD_BYTES) {
                throw new IOException("HTTP response line longer than " + MAX_HEAD_BYTES);
            }
            line.write(b);
        }
        byte[] bytes = line.toByteArray();
        int n =
                bytes.length > 0 && bytes[bytes.length - 1] == '\r'
                        ? bytes.length - 1
                        : bytes.length;
        return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** A {@code Content-Length} body. */
    private static final class FixedInput extends InputStream {
        private final InputStream in;
        private long left;

        FixedInput(InputStream in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            if (len == 0) {
                return 0;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException(left + " bytes of the HTTP response body missing");
            }
            left -= n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(left, in.available());
        }
    }

    /** A chunked body: hex size lines, data, a zero-size chunk and optional trailers. */
    private static final class ChunkedInput extends InputStream {
        private final InputStream in;
        private long chunkLeft;
        private boolean done;

        ChunkedInput(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (len == 0) {
                return 0;
            }
            if (chunkLeft == 0) {
                chunkLeft = nextChunkSize();
                if (chunkLeft == 0) {
                    while (!line().isEmpty()) {
                        // trailers: ignored
                    }
                    done = true;
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, chunkLeft));
            if (n < 0) {
                throw new EOFException("the chunked HTTP response body ends early");
            }
            chunkLeft -= n;
            if (chunkLeft == 0) {
                line(); // the CRLF after the chunk's data
            }
            return n;
        }

        private long nextChunkSize() throws IOException {
            String size = line();
            int semi = size.indexOf(';');
            String hex = (semi < 0 ? size : size.substring(0, semi)).trim();
            try {
                long n = Long.parseLong(hex, 16);
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IOException("bad chunk size in the HTTP response: " + abbreviate(size));
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("the chunked HTTP response body ends early");
                }
                if (c == '\n') {
                    break;
                }
                if (sb.length() > 4096) {
                    throw new IOException("chunk header line too long in the HTTP response");
                }
                sb.append((char) c);
            }
            int n = sb.length();
            return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
        }

        @Override
        public int available() throws IOException {
            return done ? 0 : (int) Math.min(chunkLeft, in.available());
        }
    }
}
