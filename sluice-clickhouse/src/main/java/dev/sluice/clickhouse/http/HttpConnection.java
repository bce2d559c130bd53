package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ProtocolException;
import dev.sluice.clickhouse.client.QueryResult;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.client.TlsSockets;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.compress.FrameEncoder;
import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.protocol.Progress;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * ClickHouse over its HTTP interface: for proxies and load balancers in front of the server, and
 * for input formats other than Native.
 *
 * <p>An INSERT is one POST whose body is streamed as it is encoded — the block is not copied into a
 * request buffer. The body is a sequence of ClickHouse compressed frames ({@code decompress=1}; LZ4
 * by default) or, when {@code http_compression} is set, a {@code Content-Encoding} stream.
 * Credentials travel in the {@code X-ClickHouse-User}/{@code X-ClickHouse-Key} headers, never in
 * the URL. {@code wait_end_of_query=1} makes the server report errors as status codes. Native over
 * HTTP uses the revision-0 block layout (no BlockInfo).
 *
 * <p>Keep-alive connections are pooled by the JDK's HTTP client. Results are read uncompressed,
 * because 18.16 returns empty bodies for {@code compress=1}.
 */
public final class HttpConnection implements ClickHouseClient {
    /** How much of a broken result body is kept to look for an appended exception. */
    private static final int TAIL_BYTES = 64 << 10;

    private final ConnectionConfig config;
    private final String base;
    private final SSLSocketFactory tls;
    private final FrameEncoder encoder;
    private final ContentEncoding contentEncoding;

    private final ServerInfo server;
    private final Set<String> inputFormats;
    private boolean closed;

    private HttpConnection(ConnectionConfig config) throws IOException {
        this.config = config;
        this.base =
                (config.secure() ? "https://" : "http://")
                        + (config.host().contains(":") ? "[" + config.host() + "]" : config.host())
                        + ":"
                        + config.port()
                        + "/";
        this.tls = config.secure() ? TlsSockets.context(config).getSocketFactory() : null;
        this.contentEncoding = ContentEncoding.parse(config.httpContentEncoding());
        this.encoder =
                contentEncoding == null && config.compression() != CompressionMethod.NONE
                        ? new FrameEncoder(config.compression(), config.zstdLevel())
                        : null;
        this.server = discoverServer();
        this.inputFormats = discoverInputFormats();
        if (contentEncoding != null) {
            checkContentEncodingAccepted();
        }
    }

    /** Connects (a version query) and returns a ready client. */
    public static HttpConnection open(ConnectionConfig config) {
        if (config.transport() != ConnectionConfig.Transport.HTTP) {
            throw new IllegalArgumentException(
                    "HttpConnection needs an http(s):// URL, not " + config);
        }
        try {
            return new HttpConnection(config);
        } catch (IOException e) {
            throw new ConnectionException(
                    "cannot connect to ClickHouse at " + config.address() + ": " + describe(e), e);
        }
    }

    private ServerInfo discoverServer() {
        List<List<Object>> rows = queryRows("SELECT version(), timezone()");
        String version = (String) rows.get(0).get(0);
        String[] parts = version.split("\\.");
        int major = parts.length > 0 ? parseInt(parts[0]) : 0;
        int minor = parts.length > 1 ? parseInt(parts[1]) : 0;
        int patch = parts.length > 2 ? parseInt(parts[2]) : 0;
        // The HTTP interface has no protocol revision; Native bodies use revision 0.
        return new ServerInfo(
                "ClickHouse", major, minor, patch, 0, 0, (String) rows.get(0).get(1), "");
    }

    /**
     * The input formats the server has, so that a missing one fails before a body is sent. Servers
     * list them in system.formats (18.16 included); a user who may not read it gets the list for
     * the server's version.
     */
    private Set<String> discoverInputFormats() {
        try {
            Set<String> names = new TreeSet<>();
            for (List<Object> row : queryRows("SELECT name FROM system.formats WHERE is_input")) {
                names.add((String) row.get(0));
            }
            return Collections.unmodifiableSet(names);
        } catch (dev.sluice.clickhouse.client.ServerException e) {
            return Formats.inputFormatsOf(server.versionMajor(), server.versionMinor());
        }
    }

    /** The input formats the server reads, by their exact names. */
    public Set<String> inputFormats() {
        return inputFormats;
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Sends {@code SELECT 1} with the configured Content-Encoding: servers refuse what they lack.
     */
    private void checkContentEncodingAccepted() throws IOException {
        try {
            Request r = new Request("SELECT 1 FORMAT TabSeparated", Map.of(), null);
            r.headers.put("Content-Encoding", contentEncoding.headerValue());
            byte[] empty = contentEncoding.encode(new byte[0]);
            r.send(os -> os.write(empty));
            r.readAll("check Content-Encoding " + contentEncoding.headerValue());
        } catch (dev.sluice.clickhouse.client.ServerException e) {
            throw new ClickHouseException(
                    "the server at "
                            + config.address()
                            + " does not accept Content-Encoding "
                            + contentEncoding.headerValue()
                            + " ("
                            + e.getMessage()
                            + "); use gzip or deflate, or ClickHouse frames (compression=lz4)",
                    e);
        }
    }

    @Override
    public ConnectionConfig config() {
        return config;
    }

    @Override
    public ServerInfo server() {
        return server;
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public InsertResult insert(
            String table, Block block, Map<String, String> settings, String queryId) {
        return insert(table, block, settings, queryId, InputFormat.NATIVE);
    }

    /** Inserts {@code block} encoded in {@code format}. */
    public InsertResult insert(
            String table,
            Block block,
            Map<String, String> settings,
            String queryId,
            InputFormat format) {
        checkOpen();
        if (!inputFormats.contains(format.clickHouseName())) {
            throw new ClickHouseException(
                    "the server at "
                            + config.address()
                            + " (ClickHouse "
                            + server.version()
                            + ") has no input format "
                            + format.clickHouseName()
                            + "; it reads "
                            + String.join(", ", inputFormats));
        }
        long started = System.nanoTime();
        String id = queryId != null ? queryId : UUID.randomUUID().toString();
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (");
        for (int i = 0; i < block.columnCount(); i++) {
            sql.append(i > 0 ? ", " : "").append(quoteIdentifier(block.column(i).name()));
        }
        sql.append(") FORMAT ").append(format.clickHouseName());
        Map<String, String> params = new LinkedHashMap<>(settings);
        params.put("wait_end_of_query", "1");
        Request r = new Request(sql.toString(), params, id);
        if (encoder != null) {
            r.params.put("decompress", "1");
        } else if (contentEncoding != null) {
            r.headers.put("Content-Encoding", contentEncoding.headerValue());
        }
        long[] counts = new long[2];
        String context = "INSERT INTO " + table + " over HTTP";
        try {
            sendInsert(r, format, block, counts);
            r.readAll(context);
        } catch (InsertOutcomeUnknownException e) {
            throw e;
        } catch (ConnectionException e) {
            if (r.connected) {
                // The request reached the server, which may have read the whole body and written
                // it (or may still be doing so): only the server can say.
                throw new InsertOutcomeUnknownException(id, e);
            }
            throw e;
        }
        return new InsertResult(
                id, block.rows(), 1, counts[0], counts[1], -1, -1, System.nanoTime() - started);
    }

    private void sendInsert(Request r, InputFormat format, Block block, long[] counts) {
        r.send(
                raw -> {
                    CountingStream wire = new CountingStream(raw);
                    OutputStream body = contentEncoding != null ? contentEncoding.wrap(wire) : wire;
                    WireOutput direct =
                            new WireOutput(1 << 20, (b, off, len) -> write(body, b, off, len));
                    WireOutput data =
                            encoder != null
                                    ? new WireOutput(
                                            FrameEncoder.MAX_FRAME_INPUT, encoder.drainInto(direct))
                                    : direct;
                    format.write(block, data);
                    counts[0] = data.totalWritten();
                    data.flush();
                    direct.flush();
                    if (body != wire) {
                        body.close(); // finishes the Content-Encoding stream
                    }
                    counts[1] = wire.count;
                });
    }

    @Override
    public QueryResult query(String sql, Map<String, String> settings, Consumer<Block> onBlock) {
        checkOpen();
        String id = UUID.randomUUID().toString();
        Map<String, String> params = new LinkedHashMap<>(settings);
        // Buffer the result on the server: errors become status codes instead of a body that
        // breaks off in the middle of a block.
        params.putIfAbsent("wait_end_of_query", "1");
        Request r = new Request(null, params, id);
        String body = sql.strip() + "\nFORMAT Native";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        r.send(os -> os.write(bytes));
        String context = "query " + abbreviate(sql) + " over HTTP";
        long[] rows = new long[2];
        r.readBody(
                context,
                in -> {
                    TailRecordingInputStream tail = new TailRecordingInputStream(in, TAIL_BYTES);
                    try {
                        WireInput wire = new WireInput(tail, 1 << 16);
                        while (!wire.atEnd()) {
                            Block b = NativeBlockCodec.read(wire, 0).block();
                            if (b.rows() > 0) {
                                rows[0] += b.rows();
                                rows[1]++;
                                onBlock.accept(b);
                            }
                        }
                    } catch (WireException broken) {
                        // With wait_end_of_query=0 (or a result larger than the server buffers)
                        // a failure after the first bytes can only be appended to the body.
                        dev.sluice.clickhouse.client.ServerException appended =
                                HttpErrors.fromBodyTail(tail.tailAndRest(TAIL_BYTES), context);
                        if (appended != null) {
                            appended.addSuppressed(broken);
                            throw appended;
                        }
                        throw broken;
                    }
                });
        return new QueryResult(id, rows[0], rows[1], Progress.ZERO, null);
    }

    /**
     * Runs a statement as written, without the {@code FORMAT} clause {@link #query} adds: some
     * statements take none ({@code SYSTEM FLUSH LOGS} is a syntax error with one on 18.16).
     */
    @Override
    public void execute(String sql, Map<String, String> settings) {
        checkOpen();
        Map<String, String> params = new LinkedHashMap<>(settings);
        params.putIfAbsent("wait_end_of_query", "1");
        Request r = new Request(null, params, UUID.randomUUID().toString());
        byte[] bytes = sql.strip().getBytes(StandardCharsets.UTF_8);
        r.send(os -> os.write(bytes));
        r.readAll("statement " + abbreviate(sql) + " over HTTP");
    }

    @Override
    public void execute(String sql) {
        execute(sql, Map.of());
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(
                    "the HTTP client for " + config.address() + " is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        if (encoder != null) {
            encoder.close();
        }
    }

    // ---- One HTTP exchange ----

    @FunctionalInterface
    private interface BodyWriter {
        void write(OutputStream out) throws IOException;
    }

    @FunctionalInterface
    private interface BodyReader {
        void read(InputStream in) throws IOException;
    }

    private final class Request {
        final String query;
        final Map<String, String> params;
        final Map<String, String> headers = new LinkedHashMap<>();
        HttpURLConnection connection;

        /** The connection to the server was made: from here on, the request may have arrived. */
        boolean connected;

        Request(String query, Map<String, String> perQuery, String queryId) {
            this.query = query;
            this.params = new LinkedHashMap<>();
            params.put("database", config.database());
            if (queryId != null) {
                params.put("query_id", queryId);
            }
            params.putAll(config.settings());
            params.putAll(perQuery);
        }

        String url() {
            StringBuilder sb = new StringBuilder(base).append('?');
            boolean first = true;
            if (query != null) {
                sb.append("query=").append(URLEncoder.encode(query, StandardCharsets.UTF_8));
                first = false;
            }
            for (Map.Entry<String, String> e : params.entrySet()) {
                sb.append(first ? "" : "&")
                        .append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
                        .append('=')
                        .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
                first = false;
            }
            return sb.toString();
        }

        void send(BodyWriter body) {
            try {
                connection = (HttpURLConnection) URI.create(url()).toURL().openConnection();
                if (connection instanceof HttpsURLConnection https) {
                    https.setSSLSocketFactory(tls);
                    if (config.sslInsecure()) {
                        https.setHostnameVerifier((host, session) -> true);
                    }
                }
                connection.setConnectTimeout((int) config.connectTimeout().toMillis());
                connection.setReadTimeout((int) config.readTimeout().toMillis());
                connection.setRequestMethod("POST");
                connection.setDoOutput(true);
                connection.setChunkedStreamingMode(1 << 16);
                connection.setRequestProperty("X-ClickHouse-User", config.user());
                if (!config.password().isEmpty()) {
                    connection.setRequestProperty("X-ClickHouse-Key", config.password().reveal());
                }
                connection.setRequestProperty("Content-Type", "application/octet-stream");
                headers.forEach(connection::setRequestProperty);
                connection.connect();
                connected = true;
                try (OutputStream os = connection.getOutputStream()) {
                    body.write(os);
                }
            } catch (IOException | WireException e) {
                // The server may have answered early (an unknown table) and closed the stream:
                // prefer its explanation.
                dev.sluice.clickhouse.client.ServerException answered = earlyAnswer();
                if (answered != null) {
                    throw answered;
                }
                throw connectionError("request to", e);
            }
        }

        private dev.sluice.clickhouse.client.ServerException earlyAnswer() {
            try {
                int status = connection.getResponseCode();
                if (status != 200) {
                    return errorFrom(status, "request");
                }
            } catch (IOException | RuntimeException ignored) {
                // no answer either
            }
            return null;
        }

        void readAll(String context) {
            readBody(context, in -> in.transferTo(OutputStream.nullOutputStream()));
        }

        void readBody(String context, BodyReader reader) {
            try {
                int status = connection.getResponseCode();
                if (status != 200) {
                    throw errorFrom(status, context);
                }
                try (InputStream in = connection.getInputStream()) {
                    reader.read(in);
                }
            } catch (WireException e) {
                throw new ProtocolException(
                        context
                                + ": the response is not what was asked for ("
                                + e.getMessage()
                                + ")",
                        e);
            } catch (IOException e) {
                throw connectionError(context + " at", e);
            }
        }

        private dev.sluice.clickhouse.client.ServerException errorFrom(int status, String context)
                throws IOException {
            String text = "";
            InputStream err = connection.getErrorStream();
            if (err != null) {
                try (err) {
                    text = new String(err.readNBytes(64 << 10), StandardCharsets.UTF_8).strip();
                }
            }
            return HttpErrors.parse(
                    status,
                    connection.getHeaderField("X-ClickHouse-Exception-Code"),
                    text,
                    context);
        }

        private ClickHouseException connectionError(String what, Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (e instanceof SocketTimeoutException || cause instanceof SocketTimeoutException) {
                return new ConnectionException(
                        what
                                + " "
                                + config.address()
                                + ": no answer within "
                                + config.readTimeout().toMillis()
                                + " ms",
                        e);
            }
            return new ConnectionException(
                    what + " " + config.address() + " failed: " + e.getMessage(), e);
        }
    }

    /** Counts what reaches the socket (after compression). */
    private static final class CountingStream extends java.io.FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        @Override
        public void close() throws IOException {
            flush(); // the HTTP body is closed by its owner
        }
    }

    private static void write(OutputStream out, byte[] b, int off, int len) {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw WireException.io("HTTP body write failed", e);
        }
    }

    static String quoteIdentifier(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    private static String abbreviate(String sql) {
        String s = sql.strip().replaceAll("\\s+", " ");
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** For tests: the URL of a request, to check that no credential ends up in it. */
    String urlFor(String query, Map<String, String> settings) {
        return new Request(query, settings, null).url();
    }
}
