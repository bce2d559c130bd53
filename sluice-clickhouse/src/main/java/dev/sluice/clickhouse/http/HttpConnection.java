package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.client.CancelledException;
import dev.sluice.clickhouse.client.ClickHouseClient;
import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.InsertSettings;
import dev.sluice.clickhouse.client.ProtocolException;
import dev.sluice.clickhouse.client.QueryResult;
import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.client.TlsSockets;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.compress.FrameEncoder;
import dev.sluice.clickhouse.format.Formats;
import dev.sluice.clickhouse.format.InputFormat;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.net.GuardedSocket;
import dev.sluice.clickhouse.net.SocketAbortedException;
import dev.sluice.clickhouse.protocol.Progress;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Consumer;

/**
 * ClickHouse over its HTTP interface: for proxies and load balancers in front of the server, and
 * for input formats other than Native.
 *
 * <p>An INSERT is one POST whose body is streamed as it is encoded — the block is not copied into a
 * request buffer. The body is a sequence of ClickHouse compressed frames ({@code decompress=1}; LZ4
 * by default) or, when {@code http_compression} is set, a {@code Content-Encoding} stream.
 * Credentials travel in the {@code X-ClickHouse-User}/{@code X-ClickHouse-Key} headers, never in
 * the URL. {@code wait_end_of_query=1} makes the server report errors as status codes. Native over
 * HTTP uses the revision-0 block layout (no BlockInfo). Results are read uncompressed, because
 * 18.16 returns empty bodies for {@code compress=1}.
 *
 * <p><b>Threads.</b> Thread-safe: every request runs on a socket of its own (kept alive between
 * requests), so several threads may insert and query through one {@code HttpConnection} at once;
 * compression contexts are per request.
 *
 * <p><b>Deadlines.</b> Each request, from taking a socket to the end of the response, is bounded by
 * {@link ConnectionConfig#operationTimeout()}; opening a socket (TCP and TLS) by {@link
 * ConnectionConfig#connectTimeout()}, each read by the read timeout, each write by the write
 * timeout. A deadline that passes closes that request's socket; the request fails with a {@link
 * ConnectionException} naming it. {@link #cancel()} ends every request in flight.
 */
public final class HttpConnection implements ClickHouseClient {
    /** How much of a broken result body is kept to look for an appended exception. */
    private static final int TAIL_BYTES = 64 << 10;

    /** How long to wait for the server's explanation after it stopped reading a request body. */
    private static final Duration EARLY_ANSWER_WAIT = Duration.ofSeconds(2);

    private static final int MAX_POOLED_ENCODERS = 8;

    private final ConnectionConfig config;
    private final GuardedSocket.Layer tls;
    private final ContentEncoding contentEncoding;
    private final boolean frames;
    private final IdleSockets idle = new IdleSockets();
    private final ConcurrentLinkedDeque<FrameEncoder> encoders = new ConcurrentLinkedDeque<>();
    private final Set<InFlight> inFlight = ConcurrentHashMap.newKeySet();

    private final ServerInfo server;
    private final Set<String> inputFormats;
    private volatile boolean closed;

    private HttpConnection(ConnectionConfig config) throws IOException {
        this.config = config;
        this.tls = config.secure() ? TlsSockets.layer(config) : null;
        this.contentEncoding = ContentEncoding.parse(config.httpContentEncoding());
        this.frames = contentEncoding == null && config.compression() != CompressionMethod.NONE;
        // The "handshake" of HTTP: what the server is, under the open deadline.
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
        List<List<Object>> rows = rows("SELECT version(), timezone()", config.connectTimeout());
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
            for (List<Object> row :
                    rows(
                            "SELECT name FROM system.formats WHERE is_input",
                            config.connectTimeout())) {
                names.add((String) row.get(0));
            }
            return Collections.unmodifiableSet(names);
        } catch (ServerException e) {
            return Formats.inputFormatsOf(server.versionMajor(), server.versionMinor());
        }
    }

    private List<List<Object>> rows(String sql, Duration deadline) {
        List<List<Object>> rows = new ArrayList<>();
        query(
                sql,
                Map.of(),
                b -> {
                    for (int r = 0; r < b.rows(); r++) {
                        List<Object> row = new ArrayList<>(b.columnCount());
                        for (int c = 0; c < b.columnCount(); c++) {
                            row.add(b.column(c).getObject(r));
                        }
                        rows.add(row);
                    }
                },
                deadline);
        return rows;
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
        String header = contentEncoding.headerValue();
        byte[] empty = contentEncoding.encode(new byte[0]);
        Request r = new Request("check Content-Encoding " + header, null, config.connectTimeout());
        r.params.put("query", "SELECT 1 FORMAT TabSeparated");
        r.headers.put("Content-Encoding", header);
        try {
            r.run(empty, null, HttpConnection::discard);
        } catch (ServerException e) {
            throw new ClickHouseException(
                    "the server at "
                            + config.address()
                            + " does not accept Content-Encoding "
                            + header
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
        String context = "INSERT INTO " + table + " over HTTP";
        Request r = new Request(context, id, config.operationTimeout());
        r.insert = true;
        r.params.put("query", sql.toString());
        r.params.putAll(InsertSettings.durable(server, config.settings(), settings));
        r.params.put("wait_end_of_query", "1");
        if (frames) {
            r.params.put("decompress", "1");
        } else if (contentEncoding != null) {
            r.headers.put("Content-Encoding", contentEncoding.headerValue());
        }
        long[] counts = new long[2];
        FrameEncoder encoder = frames ? takeEncoder() : null;
        try {
            runInsert(r, id, encoder, format, block, counts);
        } finally {
            if (encoder != null) {
                giveEncoder(encoder);
            }
        }
        return new InsertResult(
                id, block.rows(), 1, counts[0], counts[1], -1, -1, System.nanoTime() - started);
    }

    /**
     * Sends the INSERT and reads its answer. A connection failure once the request went out is an
     * unknown outcome: the server may have read the whole body and written it (or may still be
     * doing so) — only the server can say.
     */
    private void runInsert(
            Request r,
            String id,
            FrameEncoder encoder,
            InputFormat format,
            Block block,
            long[] counts) {
        try {
            r.run(
                    null,
                    raw -> {
                        CountingStream wire = new CountingStream(raw);
                        OutputStream body =
                                contentEncoding != null ? contentEncoding.wrap(wire) : wire;
                        WireOutput direct =
                                new WireOutput(1 << 20, (b, off, len) -> write(body, b, off, len));
                        WireOutput data =
                                encoder != null
                                        ? new WireOutput(
                                                FrameEncoder.MAX_FRAME_INPUT,
                                                encoder.drainInto(direct))
                                        : direct;
                        format.write(block, data);
                        counts[0] = data.totalWritten();
                        data.flush();
                        direct.flush();
                        if (body != wire) {
                            body.close(); // finishes the Content-Encoding stream
                        }
                        counts[1] = wire.count;
                    },
                    HttpConnection::discard);
        } catch (InsertOutcomeUnknownException e) {
            throw e;
        } catch (ConnectionException e) {
            if (r.sent) {
                throw new InsertOutcomeUnknownException(id, e);
            }
            throw e;
        }
    }

    /**
     * Compression contexts are per request: a ZSTD context is native state that two threads must
     * never share. Idle ones are kept for the next insert (creating a ZSTD context is not free).
     */
    private FrameEncoder takeEncoder() {
        FrameEncoder e = encoders.pollFirst();
        return e != null ? e : new FrameEncoder(config.compression(), config.zstdLevel());
    }

    private void giveEncoder(FrameEncoder e) {
        if (closed || encoders.size() >= MAX_POOLED_ENCODERS) {
            e.close();
            return;
        }
        encoders.addFirst(e);
        if (closed && encoders.remove(e)) {
            e.close(); // closed meanwhile: close() may have drained the deque before we added
        }
    }

    @Override
    public QueryResult query(String sql, Map<String, String> settings, Consumer<Block> onBlock) {
        return query(sql, settings, onBlock, config.operationTimeout());
    }

    private QueryResult query(
            String sql, Map<String, String> settings, Consumer<Block> onBlock, Duration deadline) {
        checkOpen();
        String id = UUID.randomUUID().toString();
        String context = "query " + abbreviate(sql) + " over HTTP";
        Request r = new Request(context, id, deadline);
        r.params.putAll(settings);
        // Buffer the result on the server: errors become status codes instead of a body that
        // breaks off in the middle of a block.
        r.params.putIfAbsent("wait_end_of_query", "1");
        byte[] body = (sql.strip() + "\nFORMAT Native").getBytes(StandardCharsets.UTF_8);
        long[] rows = new long[2];
        r.run(
                body,
                null,
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
                        if (broken.getCause() != null
                                && broken.getCause().getCause() instanceof IOException io
                                && !(io instanceof java.io.EOFException)) {
                            throw broken; // the socket failed: not an appended exception
                        }
                        // With wait_end_of_query=0 (or a result larger than the server buffers)
                        // a failure after the first bytes can only be appended to the body.
                        ServerException appended =
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
        String context = "statement " + abbreviate(sql) + " over HTTP";
        Request r = new Request(context, UUID.randomUUID().toString(), config.operationTimeout());
        r.params.putAll(settings);
        r.params.putIfAbsent("wait_end_of_query", "1");
        r.run(sql.strip().getBytes(StandardCharsets.UTF_8), null, HttpConnection::discard);
    }

    @Override
    public void execute(String sql) {
        execute(sql, Map.of());
    }

    /** {@code GET /ping}: a round trip that runs no query. */
    @Override
    public void ping() {
        checkOpen();
        Request r = new Request("ping over HTTP", null, config.operationTimeout());
        r.method = "GET";
        r.path = "/ping";
        r.params.clear();
        r.run(new byte[0], null, HttpConnection::discard);
    }

    /**
     * Ends every request in flight, from any thread: each one's socket is closed (an INSERT whose
     * body was not complete is then aborted by the server) and its thread gets a {@link
     * CancelledException}; a request the server may already be running is killed with {@code KILL
     * QUERY} by its query id. Returns false when nothing was in flight.
     *
     * @throws ClickHouseException when a {@code KILL QUERY} failed: that query may run on until it
     *     ends by itself
     */
    @Override
    public boolean cancel() {
        List<InFlight> now = List.copyOf(inFlight);
        if (now.isEmpty()) {
            return false;
        }
        String by = Thread.currentThread().getName();
        for (InFlight f : now) {
            f.cancel(by);
        }
        ClickHouseException killFailed = null;
        for (InFlight f : now) {
            if (f.queryId != null && f.started) {
                try {
                    kill(f.queryId);
                } catch (ClickHouseException e) {
                    if (killFailed == null) {
                        killFailed =
                                new ClickHouseException(
                                        "cancelled, but KILL QUERY for "
                                                + f.context
                                                + " (query id "
                                                + f.queryId
                                                + ") failed; it may run on: "
                                                + e.getMessage(),
                                        e);
                    } else {
                        killFailed.addSuppressed(e);
                    }
                }
            }
        }
        if (killFailed != null) {
            throw killFailed;
        }
        return true;
    }

    private void kill(String queryId) {
        String quoted = "'" + queryId.replace("\\", "\\\\").replace("'", "\\'") + "'";
        Request r = new Request("KILL QUERY " + quoted, null, config.connectTimeout());
        r.params.put("query", "KILL QUERY WHERE query_id = " + quoted + " ASYNC");
        r.run(new byte[0], null, HttpConnection::discard);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(
                    "the HTTP client for " + config.address() + " is closed");
        }
    }

    /** Closes idle sockets and compression contexts; requests still running finish first. */
    @Override
    public void close() {
        closed = true;
        idle.closeAll();
        FrameEncoder e;
        while ((e = encoders.pollFirst()) != null) {
            e.close();
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

    private static void discard(InputStream in) throws IOException {
        in.transferTo(OutputStream.nullOutputStream());
    }

    /** A request running, for {@link #cancel()}. */
    private static final class InFlight {
        final String context;
        final String queryId;
        volatile GuardedSocket socket;

        /**
         * The server may be running the query past reading its request: set before the first byte
         * of a request without a streamed body goes out (the server may run it before this thread
         * learns its bytes were written, and a cancel in between must kill it), and after a
         * streamed body was sent whole. An INSERT whose body is still arriving is not killed: 18.16
         * refuses that ("unkillable stages"), and closing its socket aborts it anyway.
         */
        volatile boolean started;

        volatile String cancelledBy;

        InFlight(String context, String queryId) {
            this.context = context;
            this.queryId = queryId;
        }

        void cancel(String by) {
            cancelledBy = by;
            GuardedSocket s = socket;
            if (s != null) {
                s.abort(context + ": cancelled by thread '" + by + "'");
            }
        }

        void attach(GuardedSocket s) {
            socket = s;
            String by = cancelledBy;
            if (by != null) {
                s.abort(context + ": cancelled by thread '" + by + "'");
            }
        }
    }

    private final class Request {
        final String context;
        final String queryId;
        final Duration deadline;
        final Map<String, String> params = new LinkedHashMap<>();
        final Map<String, String> headers = new LinkedHashMap<>();
        String method = "POST";
        String path = "/";
        boolean insert;

        /** The request started to go out on a connected socket: it may have reached the server. */
        volatile boolean sent;

        Request(String context, String queryId, Duration deadline) {
            this.context = context;
            this.queryId = queryId;
            this.deadline = deadline;
            params.put("database", config.database());
            if (queryId != null) {
                params.put("query_id", queryId);
            }
            params.putAll(config.settings());
        }

        String target() {
            StringBuilder sb = new StringBuilder(path);
            boolean first = true;
            for (Map.Entry<String, String> e : params.entrySet()) {
                sb.append(first ? '?' : '&')
                        .append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
                        .append('=')
                        .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
                first = false;
            }
            return sb.toString();
        }

        Map<String, String> allHeaders() {
            Map<String, String> all = new LinkedHashMap<>();
            all.put("Host", config.address());
            all.put("X-ClickHouse-User", config.user());
            if (!config.password().isEmpty()) {
                all.put("X-ClickHouse-Key", config.password().reveal());
            }
            all.put("Content-Type", "application/octet-stream");
            all.putAll(headers);
            return all;
        }

        /**
         * Sends the request — {@code fixed} bytes, or a chunked body from {@code streamed} — and
         * hands a 200 response's body to {@code reader}; any other status is the server's error. A
         * request with a fixed body that failed on a reused keep-alive socket before any answer is
         * sent again once on a fresh socket (the server closed the idle one as we picked it).
         */
        void run(byte[] fixed, BodyWriter streamed, BodyReader reader) {
            InFlight f = new InFlight(context, queryId);
            inFlight.add(f);
            try {
                for (int attempt = 1; ; attempt++) {
                    GuardedSocket s = idle.take();
                    boolean reused = s != null;
                    if (s == null) {
                        s = connect();
                    }
                    try {
                        attempt(s, f, fixed, streamed, reader);
                        return;
                    } catch (RetryOnFreshSocket retry) {
                        if (!reused || fixed == null || attempt > 1) {
                            throw retry.failure;
                        }
                    }
                }
            } finally {
                inFlight.remove(f);
            }
        }

        private GuardedSocket connect() {
            try {
                GuardedSocket s =
                        GuardedSocket.connect(
                                config.host(),
                                config.port(),
                                new GuardedSocket.Timeouts(
                                        config.connectTimeout(),
                                        config.readTimeout(),
                                        config.writeTimeout()),
                                tls);
                s.endOperation(); // open deadline: TCP and TLS only
                return s;
            } catch (IOException e) {
                throw new ConnectionException(
                        context
                                + ": cannot connect to ClickHouse at "
                                + config.address()
                                + ": "
                                + describe(e),
                        e);
            }
        }

        private void attempt(
                GuardedSocket s, InFlight f, byte[] fixed, BodyWriter streamed, BodyReader reader) {
            f.attach(s);
            s.beginOperation(
                    deadline,
                    "not finished within " + deadline.toMillis() + " ms (operation_timeout)");
            HttpExchange x = new HttpExchange(s);
            boolean keep = false;
            try {
                HttpResponse response;
                try {
                    sent = true;
                    f.started = streamed == null;
                    x.sendHead(method, target(), allHeaders(), fixed);
                    if (streamed != null) {
                        try (OutputStream body = x.chunkedBody()) {
                            streamed.write(body);
                        }
                        f.started = true;
                    }
                    response = x.readResponse();
                } catch (IOException | WireException sendFailure) {
                    // The server may have answered early (an unknown table, a failing block) and
                    // stopped reading: prefer its explanation to the broken pipe.
                    response = earlyAnswer(x, s, f);
                    if (response == null || response.status() == 200) {
                        // No explanation; and a success for a body that did not go out whole
                        // cannot be trusted.
                        throw failure(s, f, x, sendFailure);
                    }
                }
                if (response.status() != 200) {
                    throw errorFrom(response);
                }
                reader.read(response.body());
                discard(response.body());
                keep = x.cleanEnd() && response.keepAliveMillis() > 0;
                s.endOperation();
                if (keep) {
                    idle.give(s, response.keepAliveMillis());
                }
            } catch (IOException e) {
                throw failure(s, f, x, e);
            } catch (WireException e) {
                if (s.abortReason() != null || f.cancelledBy != null || ioCause(e)) {
                    throw failure(s, f, x, e);
                }
                throw new ProtocolException(
                        context
                                + ": the response is not what was asked for ("
                                + e.getMessage()
                                + ")",
                        e);
            } finally {
                if (!keep) {
                    s.close();
                }
            }
        }

        /** The response the server sent before (or instead of) reading the whole body, if any. */
        private HttpResponse earlyAnswer(HttpExchange x, GuardedSocket s, InFlight f) {
            if (s.abortReason() != null || f.cancelledBy != null) {
                return null;
            }
            try {
                s.setReadTimeout(EARLY_ANSWER_WAIT);
                return x.readResponse();
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        private ServerException errorFrom(HttpResponse response) throws IOException {
            byte[] text = response.body().readNBytes(64 << 10);
            return HttpErrors.parse(
                    response.status(),
                    response.header("X-ClickHouse-Exception-Code"),
                    new String(text, StandardCharsets.UTF_8).strip(),
                    context);
        }

        private RuntimeException failure(GuardedSocket s, InFlight f, HttpExchange x, Exception e) {
            s.abort("failed"); // nothing more of this exchange may be read or written
            if (f.cancelledBy != null) {
                return new CancelledException(
                        context
                                + ": cancelled by thread '"
                                + f.cancelledBy
                                + "'"
                                + (insert
                                        ? "; the server aborts the INSERT unless its body was"
                                                + " complete (then KILL QUERY stops it; blocks"
                                                + " already read may have been written)"
                                        : ""),
                        true,
                        e);
            }
            String aborted = abortReasonIn(e);
            if (aborted != null) {
                return new ConnectionException(
                        context
                                + ": "
                                + aborted
                                + "; the request to "
                                + config.address()
                                + " is abandoned",
                        e);
            }
            if (!x.responseStarted()) {
                RetryOnFreshSocket retry = new RetryOnFreshSocket(connectionError(e));
                return retry;
            }
            return connectionError(e);
        }

        private ConnectionException connectionError(Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (e instanceof SocketTimeoutException
                    || cause instanceof SocketTimeoutException
                    || cause.getCause() instanceof SocketTimeoutException) {
                return new ConnectionException(
                        context
                                + ": no answer from "
                                + config.address()
                                + " within "
                                + config.readTimeout().toMillis()
                                + " ms (read_timeout)",
                        e);
            }
            return new ConnectionException(
                    context + ": request to " + config.address() + " failed: " + e.getMessage(), e);
        }
    }

    /** Whether a wire failure came from the socket (not from bytes that make no sense). */
    private static boolean ioCause(WireException e) {
        return e.getCause() != null && e.getCause().getCause() instanceof IOException;
    }

    /** The abort reason a deadline or cancel left in a failure's causes, or null. */
    private static String abortReasonIn(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketAbortedException a && !"failed".equals(a.getMessage())) {
                return a.getMessage();
            }
        }
        return null;
    }

    /**
     * A failure before any byte of the answer, which a request with a fixed body may retry on a
     * fresh socket; otherwise its {@link #failure} is what the caller gets.
     */
    private static final class RetryOnFreshSocket extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient ConnectionException failure;

        RetryOnFreshSocket(ConnectionException failure) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
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
        Request r = new Request("test", null, Duration.ZERO);
        if (query != null) {
            r.params.put("query", query);
        }
        r.params.putAll(settings);
        return (config.secure() ? "https://" : "http://") + config.address() + r.target();
    }
}
