package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.compress.FrameEncoder;
import dev.sluice.clickhouse.compress.FrameInputStream;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.protocol.Addendum;
import dev.sluice.clickhouse.protocol.ClientHello;
import dev.sluice.clickhouse.protocol.ClientInfo;
import dev.sluice.clickhouse.protocol.ClientPacketType;
import dev.sluice.clickhouse.protocol.InitialAddress;
import dev.sluice.clickhouse.protocol.ProfileInfo;
import dev.sluice.clickhouse.protocol.Progress;
import dev.sluice.clickhouse.protocol.ProtocolRevision;
import dev.sluice.clickhouse.protocol.QueryPacket;
import dev.sluice.clickhouse.protocol.QuerySetting;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import dev.sluice.clickhouse.protocol.ServerHello;
import dev.sluice.clickhouse.protocol.ServerPacketType;
import dev.sluice.clickhouse.protocol.TableColumns;
import dev.sluice.clickhouse.protocol.TimezoneUpdate;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One native-protocol (TCP) connection to a ClickHouse server.
 *
 * <p>Opening it performs the handshake and negotiates the protocol revision: the lower of ours
 * ({@value ProtocolRevision#CLIENT_REVISION}) and the server's; every field on the wire is gated on
 * it. Then it runs one query at a time: {@link #insert} streams Native blocks into a table, {@link
 * #query} streams result blocks out, {@link #execute} runs a statement.
 *
 * <p>Blocks travel in compressed frames (LZ4 by default, ZSTD, or none) of at most 1 MiB of
 * uncompressed data each; a Data packet always ends on a frame boundary.
 *
 * <p>Not thread-safe: one connection serves one thread at a time. After a network failure or a
 * protocol error the connection is broken and every further call fails; open a new one. After the
 * server ends a query with an exception, the next call first reconnects: the server may have failed
 * before reading what was already sent for that query (18.16 does not skip it and would take the
 * leftover packets for the next query's), so that socket cannot be trusted.
 */
public final class NativeConnection implements ClickHouseClient {
    /** Our client version, reported in Hello and ClientInfo. */
    public static final int VERSION_MAJOR = 0;

    public static final int VERSION_MINOR = 1;
    public static final int VERSION_PATCH = 0;

    /** Raw output: large enough for one full compressed frame without growing. */
    private static final int RAW_OUTPUT_BYTES = FrameEncoder.MAX_FRAME_INPUT + (64 << 10);

    private static final int INPUT_BUFFER_BYTES = 64 << 10;

    private enum State {
        IDLE,
        BUSY,
        BROKEN,
        CLOSED
    }

    private final ConnectionConfig config;
    private final FrameEncoder encoder;
    private final boolean compressed;
    private final ServerInfo server;
    private final int revision;

    // The socket and its streams: replaced when the connection reconnects after an exception.
    private Socket socket;
    private OutputStream socketOut;
    private WireInput in;
    private WireInput blockIn;
    private WireOutput out;
    private WireOutput blockOut;
    private String initialAddress;

    private long socketBytesWritten;
    private State state = State.IDLE;
    private String brokenReason;

    /** The server ended the last query with an exception: reconnect before the next one. */
    private boolean stale;

    // Per query: what the server reported so far.
    private Progress progress = Progress.ZERO;
    private ProfileInfo profileInfo;
    private TableColumns tableColumns;
    private Block lastBlock;

    /** The last finished insert's block, kept with its capacity for the next insert. */
    private Block spareBlock;

    private NativeConnection(ConnectionConfig config, Socket socket) throws IOException {
        this.config = config;
        this.compressed = config.compression() != CompressionMethod.NONE;
        this.encoder =
                compressed ? new FrameEncoder(config.compression(), config.zstdLevel()) : null;
        ServerHello hello;
        try {
            attach(socket);
            hello = handshake();
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            if (encoder != null) {
                encoder.close(); // its native compression context
            }
            throw e;
        }
        this.revision =
                ProtocolRevision.negotiate(ProtocolRevision.CLIENT_REVISION, hello.revision());
        this.server = ServerInfo.from(hello, revision);
        sendAddendum();
    }

    /** Makes {@code socket} the one this connection talks through. */
    private void attach(Socket socket) throws IOException {
        this.socket = socket;
        this.socketOut = socket.getOutputStream();
        this.in = new WireInput(socket.getInputStream(), INPUT_BUFFER_BYTES);
        this.out = new WireOutput(RAW_OUTPUT_BYTES, this::writeToSocket);
        if (compressed) {
            this.blockOut = new WireOutput(FrameEncoder.MAX_FRAME_INPUT, encoder.drainInto(out));
            this.blockIn = new WireInput(new FrameInputStream(in), INPUT_BUFFER_BYTES);
        } else {
            this.blockOut = out;
            this.blockIn = in;
        }
        this.initialAddress =
                InitialAddress.format((InetSocketAddress) socket.getLocalSocketAddress());
    }

    private void sendAddendum() {
        if (revision >= ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_ADDENDUM) {
            new Addendum("").write(out, revision);
            out.flush();
        }
    }

    /**
     * Replaces the socket with a fresh one to the same server, after the server ended a query with
     * an exception. A server that now answers with another revision is a different server: the
     * connection is then broken.
     */
    private void reconnect(String what) {
        stale = false;
        closeQuietly(socket);
        try {
            attach(connect(config));
            ServerHello hello = handshake();
            int again =
                    ProtocolRevision.negotiate(ProtocolRevision.CLIENT_REVISION, hello.revision());
            if (again != revision) {
                markBroken(
                        "after reconnecting, the server negotiates revision "
                                + again
                                + " instead of "
                                + revision);
                closeQuietly(socket);
                return;
            }
            sendAddendum();
        } catch (IOException e) {
            markBroken("reconnecting failed: " + describe(e));
            closeQuietly(socket);
        } catch (ClickHouseException | WireException e) {
            markBroken("reconnecting failed: " + e.getMessage());
            closeQuietly(socket);
        }
    }

    /** Connects, performs the handshake and returns an idle connection. */
    public static NativeConnection open(ConnectionConfig config) {
        if (config.transport() != ConnectionConfig.Transport.NATIVE) {
            throw new IllegalArgumentException(
                    "NativeConnection needs a clickhouse:// URL, not " + config);
        }
        try {
            return new NativeConnection(config, connect(config));
        } catch (IOException e) {
            throw new ConnectionException(
                    "cannot connect to ClickHouse at " + config.address() + ": " + describe(e), e);
        }
    }

    /** A connected socket (TLS when configured), or a ConnectionException saying why not. */
    private static Socket connect(ConnectionConfig config) {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(
                    new InetSocketAddress(config.host(), config.port()),
                    (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, config.readTimeout().toMillis()));
            return config.secure() ? TlsSockets.wrap(socket, config) : socket;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new ConnectionException(
                    "cannot connect to ClickHouse at "
                            + config.address()
                            + ": timed out after "
                            + config.connectTimeout().toMillis()
                            + " ms",
                    e);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new ConnectionException(
                    "cannot connect to ClickHouse at " + config.address() + ": " + describe(e), e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    public static NativeConnection open(String url) {
        return open(ConnectionConfig.parse(url));
    }

    private ServerHello handshake() {
        try {
            new ClientHello(
                            config.clientName(),
                            VERSION_MAJOR,
                            VERSION_MINOR,
                            ProtocolRevision.CLIENT_REVISION,
                            config.database(),
                            config.user(),
                            config.password().reveal())
                    .write(out);
            out.flush();
            ServerPacketType type = ServerPacketType.read(in);
            if (type == ServerPacketType.EXCEPTION) {
                ServerExceptionInfo info =
                        ServerExceptionInfo.read(in, ProtocolRevision.CLIENT_REVISION);
                throw new ServerException(
                        info, "ClickHouse at " + config.address() + " refused the connection");
            }
            if (type != ServerPacketType.HELLO) {
                throw new ProtocolException(
                        "ClickHouse at " + config.address() + " answered Hello with " + type);
            }
            return ServerHello.read(in, ProtocolRevision.CLIENT_REVISION);
        } catch (WireException e) {
            closeQuietly(socket);
            throw new ConnectionException(
                    "handshake with ClickHouse at "
                            + config.address()
                            + " failed: "
                            + e.getMessage(),
                    e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    @Override
    public ServerInfo server() {
        return server;
    }

    /** The negotiated protocol revision. */
    public int revision() {
        return revision;
    }

    @Override
    public ConnectionConfig config() {
        return config;
    }

    /** Bytes written to the socket since the connection opened. */
    public long socketBytesWritten() {
        return socketBytesWritten;
    }

    @Override
    public boolean isOpen() {
        return state == State.IDLE || state == State.BUSY;
    }

    /**
     * Starts an INSERT into {@code table} ({@code db.table} or {@code table}); {@code columns} may
     * be empty for all insertable columns. The returned {@link Insert} holds empty columns shaped
     * like the server's header; fill them, then {@link Insert#finish()}.
     */
    public Insert insert(String table, List<String> columns, Map<String, String> settings) {
        return insert(table, columns, settings, InsertOptions.DEFAULTS);
    }

    public Insert insert(
            String table,
            List<String> columns,
            Map<String, String> settings,
            InsertOptions options) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table);
        if (!columns.isEmpty()) {
            sql.append(" (");
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    sql.append(", ");
                }
                sql.append(quoteIdentifier(columns.get(i)));
            }
            sql.append(')');
        }
        sql.append(" VALUES");
        String context = "INSERT INTO " + table;
        String queryId = options.queryId() != null ? options.queryId() : newQueryId();
        long started = System.nanoTime();
        startQuery(queryId, sql.toString(), settings, context);
        try {
            while (true) {
                ServerPacketType t = nextPacket(context);
                if (t == ServerPacketType.DATA) {
                    Block header = lastBlock;
                    lastBlock = null;
                    return new Insert(
                            this,
                            table,
                            queryId,
                            reuseIfSameShape(header),
                            tableColumns,
                            options,
                            started);
                }
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    throw new ProtocolException(
                            context + ": the server ended the query without asking for data");
                }
            }
        } catch (WireException e) {
            throw broken(context, e);
        }
    }

    /**
     * Inserts a block filled in advance (the pipeline builds blocks before it picks a connection).
     * The server's header must name the same columns with the same types.
     *
     * @throws InsertOutcomeUnknownException when the connection fails after the block may have
     *     reached the server; a {@link ConnectionException} before that means nothing was written
     */
    @Override
    public InsertResult insert(
            String table, Block block, Map<String, String> settings, String queryId) {
        List<String> names = new ArrayList<>(block.columnCount());
        for (int i = 0; i < block.columnCount(); i++) {
            names.add(block.column(i).name());
        }
        InsertOptions options =
                InsertOptions.DEFAULTS.withQueryId(queryId == null ? newQueryId() : queryId);
        try (Insert insert = insert(table, names, settings, options)) {
            String problem = headerMismatch(insert.block(), block, names);
            if (problem != null) {
                insert.finish(); // ends the INSERT with no rows; the connection stays usable
                throw new ClickHouseException("INSERT INTO " + table + ": " + problem);
            }
            try {
                return insert.finishWith(block);
            } catch (InsertOutcomeUnknownException e) {
                throw e;
            } catch (ConnectionException e) {
                // The server started the INSERT (it sent the header) and may have read the block:
                // 18.16 writes a complete block even when the end marker never comes.
                throw new InsertOutcomeUnknownException(options.queryId(), e);
            }
        }
    }

    /**
     * The spare block when it has the header's names and types, else the header itself. Filling
     * fresh columns would grow them from scratch on every insert: for 1M-row blocks that is
     * hundreds of MB allocated, zeroed and copied per insert.
     */
    private Block reuseIfSameShape(Block header) {
        Block spare = spareBlock;
        spareBlock = null;
        if (spare == null || spare.columnCount() != header.columnCount()) {
            return header;
        }
        for (int i = 0; i < header.columnCount(); i++) {
            if (!spare.column(i).name().equals(header.column(i).name())
                    || !spare.typeName(i).equals(header.typeName(i))) {
                return header;
            }
        }
        spare.reset();
        return spare;
    }

    /** A finished insert hands its (emptied) block back for the next insert of the same shape. */
    void recycle(Block block) {
        block.reset();
        spareBlock = block;
    }

    private static String headerMismatch(Block header, Block block, List<String> names) {
        if (header.columnCount() != block.columnCount()) {
            return "the server expects "
                    + header.columnCount()
                    + " columns, the block has "
                    + block.columnCount();
        }
        for (int i = 0; i < header.columnCount(); i++) {
            String name = header.column(i).name();
            if (!name.equals(names.get(i)) || !header.typeName(i).equals(block.typeName(i))) {
                return "column "
                        + names.get(i)
                        + " "
                        + block.typeName(i)
                        + " does not match the table's "
                        + name
                        + " "
                        + header.typeName(i)
                        + " (did the table change?)";
            }
        }
        return null;
    }

    /**
     * Runs a query and hands each result block with rows to {@code onBlock}. If {@code onBlock}
     * throws, the query is cancelled and the exception propagates.
     */
    @Override
    public QueryResult query(String sql, Map<String, String> settings, Consumer<Block> onBlock) {
        String queryId = newQueryId();
        String context = "query " + abbreviate(sql);
        startQuery(queryId, sql, settings, context);
        long rows = 0;
        long blocks = 0;
        try {
            while (true) {
                ServerPacketType t = nextPacket(context);
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    return new QueryResult(queryId, rows, blocks, progress, profileInfo);
                }
                if (t == ServerPacketType.DATA && lastBlock.rows() > 0) {
                    Block b = lastBlock;
                    lastBlock = null;
                    rows += b.rows();
                    blocks++;
                    try {
                        onBlock.accept(b);
                    } catch (RuntimeException | Error e) {
                        cancelAndDrain(context);
                        throw e;
                    }
                }
            }
        } catch (WireException e) {
            throw broken(context, e);
        }
    }

    /** Round trip to check the connection is alive. */
    public void ping() {
        checkIdle("ping");
        try {
            ClientPacketType.PING.write(out);
            out.flush();
            while (true) {
                ServerPacketType t = ServerPacketType.read(in);
                if (t == ServerPacketType.PONG) {
                    return;
                }
                if (t != ServerPacketType.PROGRESS) {
                    throw new ProtocolException("ping: unexpected " + t + " before Pong");
                }
                Progress.read(in, revision);
            }
        } catch (WireException e) {
            throw broken("ping", e);
        }
    }

    // ---- Query plumbing ----

    private void startQuery(
            String queryId, String sql, Map<String, String> settings, String context) {
        checkIdle(context);
        progress = Progress.ZERO;
        profileInfo = null;
        tableColumns = null;
        lastBlock = null;
        ClientInfo info =
                ClientInfo.builder()
                        .initialQueryId(queryId)
                        .initialAddress(initialAddress)
                        .initialQueryStartTimeMicros(currentTimeMicros())
                        .osUser(System.getProperty("user.name", ""))
                        .clientHostname(HostName.VALUE)
                        .clientName(config.clientName())
                        .version(VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH)
                        .clientRevision(ProtocolRevision.CLIENT_REVISION)
                        .build();
        QueryPacket packet =
                new QueryPacket(queryId, info, settingsFor(settings), compressed, sql, List.of());
        int mark = out.position();
        try {
            packet.write(out, revision);
        } catch (IllegalArgumentException e) {
            out.truncate(mark); // nothing of the refused query reaches the server
            throw new ClickHouseException(
                    context + ": " + e.getMessage() + " (server " + server + ")", e);
        }
        try {
            // No external tables: the empty block ends them.
            ClientPacketType.DATA.write(out);
            out.writeString("");
            NativeBlockCodec.writeEmpty(blockOut, revision);
            blockOut.flush();
            out.flush();
        } catch (WireException e) {
            throw broken(context, e);
        }
        state = State.BUSY;
    }

    private List<QuerySetting> settingsFor(Map<String, String> perQuery) {
        Map<String, String> all = new LinkedHashMap<>();
        if (config.compression() == CompressionMethod.ZSTD) {
            all.put("network_compression_method", "zstd"); // server -> client frames too
        }
        all.putAll(config.settings());
        all.putAll(perQuery);
        List<QuerySetting> list = new ArrayList<>(all.size());
        all.forEach((k, v) -> list.add(new QuerySetting(k, v)));
        return list;
    }

    /**
     * Reads one packet. Progress, ProfileInfo, Log, ProfileEvents, TableColumns and TimezoneUpdate
     * are absorbed here; a Data block is left in {@link #lastBlock}; an Exception ends the query
     * and is thrown.
     */
    private ServerPacketType nextPacket(String context) {
        ServerPacketType t = ServerPacketType.read(in);
        switch (t) {
            case DATA, TOTALS, EXTREMES -> {
                in.readString(); // temporary table name
                lastBlock = NativeBlockCodec.read(blockIn, revision).block();
            }
            case PROGRESS -> progress = progress.plus(Progress.read(in, revision));
            case PROFILE_INFO -> profileInfo = ProfileInfo.read(in, revision);
            case TABLE_COLUMNS -> tableColumns = TableColumns.read(in, revision);
            case LOG, PROFILE_EVENTS -> {
                // Always uncompressed at our revision (compression of these starts at 54481).
                in.readString();
                NativeBlockCodec.read(in, revision);
            }
            case TIMEZONE_UPDATE -> TimezoneUpdate.read(in, revision);
            case EXCEPTION -> {
                ServerExceptionInfo info = ServerExceptionInfo.read(in, revision);
                state = State.IDLE; // the server ended the query ...
                stale = true; // ... but may not have read all we sent for it
                throw new ServerException(info, context);
            }
            case END_OF_STREAM -> {}
            default -> {
                throw broken(
                        context, new WireException("unexpected packet " + t + " from the server"));
            }
        }
        return t;
    }

    /** Sends Cancel and reads until the server confirms the end of the query. */
    private void cancelAndDrain(String context) {
        try {
            ClientPacketType.CANCEL.write(out);
            out.flush();
            while (true) {
                ServerPacketType t;
                try {
                    t = nextPacket(context);
                } catch (ServerException e) {
                    return; // the server may report the cancellation as an exception
                }
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    return;
                }
            }
        } catch (WireException e) {
            markBroken(e.getMessage());
        }
    }

    // ---- Used by Insert ----

    /** Sends one Data packet; the block ends on a frame boundary. */
    long sendData(Block block, String context) {
        long before = socketBytesWritten + out.position();
        try {
            ClientPacketType.DATA.write(out);
            out.writeString("");
            NativeBlockCodec.write(block, blockOut, revision);
            blockOut.flush();
            out.flush();
        } catch (WireException e) {
            throw failedWhileSending(context, e);
        }
        return socketBytesWritten - before;
    }

    /** Reads packets the server sent meanwhile (an early Exception), without blocking. */
    void pollServer(String context) {
        try {
            while (in.buffered() > 0 || socket.getInputStream().available() > 0) {
                ServerPacketType t = nextPacket(context);
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    throw new ProtocolException(context + ": the server ended the INSERT early");
                }
            }
        } catch (IOException e) {
            throw broken(context, WireException.io("poll", e));
        } catch (WireException e) {
            throw broken(context, e);
        }
    }

    /** Sends the end-of-data block and reads until the server ends the INSERT. */
    Progress finishInsert(String context) {
        sendData(EMPTY, context);
        try {
            while (true) {
                ServerPacketType t = nextPacket(context);
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    return progress;
                }
            }
        } catch (WireException e) {
            throw broken(context, e);
        }
    }

    /** An insert abandoned mid-stream: the only safe way out is to drop the connection. */
    void abandon(String reason) {
        markBroken(reason);
        closeQuietly(socket);
    }

    private static final Block EMPTY = new Block(List.of(), List.of());

    private ClickHouseException failedWhileSending(String context, WireException e) {
        // The server often explains why it stopped reading (a broken pipe after an
        // exception): look for its message before reporting a network failure.
        markBroken(e.getMessage());
        try {
            socket.setSoTimeout(2000);
            if (ServerPacketType.read(in) == ServerPacketType.EXCEPTION) {
                ServerExceptionInfo info = ServerExceptionInfo.read(in, revision);
                closeQuietly(socket);
                return new ServerException(info, context);
            }
        } catch (IOException | RuntimeException ignored) {
            // no explanation available; report the network failure
        }
        closeQuietly(socket);
        return new ConnectionException(
                context
                        + ": connection to "
                        + config.address()
                        + " lost while sending: "
                        + e.getMessage(),
                e);
    }

    private ClickHouseException broken(String context, WireException e) {
        markBroken(e.getMessage());
        closeQuietly(socket);
        Throwable cause = e.getCause() != null ? e.getCause().getCause() : null;
        if (cause instanceof SocketTimeoutException) {
            return new ConnectionException(
                    context
                            + ": no answer from "
                            + config.address()
                            + " within "
                            + config.readTimeout().toMillis()
                            + " ms",
                    e);
        }
        if (e.getCause() != null || e.getMessage().startsWith("unexpected end of stream")) {
            return new ConnectionException(
                    context + ": connection to " + config.address() + " lost: " + e.getMessage(),
                    e);
        }
        return new ProtocolException(context + ": " + e.getMessage(), e);
    }

    private void markBroken(String reason) {
        if (state != State.CLOSED) {
            state = State.BROKEN;
            brokenReason = reason;
        }
    }

    private void checkIdle(String what) {
        if (state == State.IDLE && stale) {
            reconnect(what);
        }
        switch (state) {
            case IDLE -> {}
            case BUSY ->
                    throw new IllegalStateException(
                            what + ": the connection is busy with another query");
            case BROKEN ->
                    throw new ConnectionException(
                            what
                                    + ": the connection to "
                                    + config.address()
                                    + " is broken ("
                                    + brokenReason
                                    + ")");
            case CLOSED -> throw new IllegalStateException(what + ": the connection is closed");
        }
    }

    private void writeToSocket(byte[] buf, int off, int len) {
        try {
            socketOut.write(buf, off, len);
            socketBytesWritten += len;
        } catch (IOException e) {
            throw WireException.io("write to " + config.address() + " failed", e);
        }
    }

    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        closeQuietly(socket);
        if (encoder != null) {
            encoder.close();
        }
    }

    // ---- Small helpers ----

    static String newQueryId() {
        return UUID.randomUUID().toString();
    }

    static String quoteIdentifier(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    private static String abbreviate(String sql) {
        String s = sql.strip().replaceAll("\\s+", " ");
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    private static long currentTimeMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing left to do with a socket that will not close
        }
    }

    /** The local host name, read once without a DNS lookup. */
    private static final class HostName {
        static final String VALUE = read();

        private static String read() {
            try {
                Path p = Path.of("/proc/sys/kernel/hostname");
                if (Files.isReadable(p)) {
                    return Files.readString(p).strip();
                }
            } catch (IOException | RuntimeException ignored) {
                // fall through
            }
            String env = System.getenv("HOSTNAME");
            return env == null ? "" : env;
        }
    }
}
