package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.block.NativeBlockCodec;
import dev.sluice.clickhouse.compress.CompressionMethod;
import dev.sluice.clickhouse.compress.FrameEncoder;
import dev.sluice.clickhouse.compress.FrameInputStream;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.net.GuardedSocket;
import dev.sluice.clickhouse.net.SocketAbortedException;
import dev.sluice.clickhouse.protocol.Addendum;
import dev.sluice.clickhouse.protocol.ClientHello;
import dev.sluice.clickhouse.protocol.ClientInfo;
import dev.sluice.clickhouse.protocol.ClientPacketType;
import dev.sluice.clickhouse.protocol.InitialAddress;
import dev.sluice.clickhouse.protocol.LogEntry;
import dev.sluice.clickhouse.protocol.ProfileEvent;
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
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.regex.Pattern;

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
 * <p><b>Threads.</b> A connection runs one operation at a time, for one thread at a time: a call
 * from a second thread while one is inside fails fast with an {@link IllegalStateException} naming
 * the operation in progress and its thread, instead of interleaving bytes on the wire; starting a
 * query while an {@link Insert} is open fails the same way. Share connections between threads with
 * a {@link ConnectionPool}. Only {@link #cancel()} and {@link #close()} may be called from any
 * thread at any time.
 *
 * <p><b>Deadlines.</b> Opening (TCP, TLS and handshake) is bounded by {@link
 * ConnectionConfig#connectTimeout()}, each read by {@link ConnectionConfig#readTimeout()}, each
 * write by {@link ConnectionConfig#writeTimeout()} and each operation by {@link
 * ConnectionConfig#operationTimeout()}; a deadline that passes closes the socket and the operation
 * fails with a {@link ConnectionException} that names it (see {@link GuardedSocket}).
 *
 * <p><b>Failures.</b> After a network failure, a deadline or a protocol error the connection is
 * broken and every further call fails; open a new one. After the server ends a query with an
 * exception, the next call first reconnects: the server may have failed before reading what was
 * already sent for that query (18.16 does not skip it and would take the leftover packets for the
 * next query's), so that socket cannot be trusted. The reconnect replays the session's {@code SET}
 * and {@code USE} statements, so session settings survive it.
 */
public final class NativeConnection implements ClickHouseClient {
    /** Our client version, reported in Hello and ClientInfo. */
    public static final int VERSION_MAJOR = 0;

    public static final int VERSION_MINOR = 1;
    public static final int VERSION_PATCH = 0;

    /** Raw output: large enough for one full compressed frame without growing. */
    private static final int RAW_OUTPUT_BYTES = FrameEncoder.MAX_FRAME_INPUT + (64 << 10);

    private static final int INPUT_BUFFER_BYTES = 64 << 10;

    /** How long a cancel waits for the running thread to finish writing a packet. */
    private static final long CANCEL_LOCK_MILLIS = 1000;

    /** Statements whose effect lives in the server's session: replayed after a reconnect. */
    private static final Pattern SESSION_STATEMENT = Pattern.compile("(?is)\\s*(SET|USE)\\s.*");

    private static final Block EMPTY = new Block(List.of(), List.of());

    private enum State {
        IDLE,
        BUSY,
        BROKEN,
        CLOSED
    }

    private final ConnectionConfig config;
    private final FrameEncoder encoder;
    private final boolean compressed;
    private final GuardedSocket.Layer tls;
    private final ServerInfo server;
    private final int revision;
    private final InUseGuard guard;

    /** Held while a packet is written, so that a Cancel from another thread goes between two. */
    private final ReentrantLock writeLock = new ReentrantLock();

    // The socket and its streams: replaced when the connection reconnects after an exception.
    private volatile GuardedSocket socket;
    private WireInput in;
    private WireInput blockIn;
    private WireOutput out;
    private WireOutput blockOut;
    private String initialAddress;

    private long socketBytesWritten;
    private volatile State state = State.IDLE;
    private volatile String brokenReason;

    /** The server ended the last query with an exception: reconnect before the next one. */
    private boolean stale;

    // The operation in progress while BUSY, for messages and for cancel().
    private volatile String busyWith;
    private volatile String busyThread;
    private volatile boolean busyIsInsert;
    private volatile long operationNumber;
    private volatile long cancelledOperation;
    private volatile String cancelledBy;

    private volatile ServerEventListener listener;
    private boolean quietEvents; // while replaying session statements

    /** SET and USE statements that succeeded, oldest first, to replay after a reconnect. */
    private final List<String> sessionStatements = new ArrayList<>();

    // Per query: what the server reported so far.
    private String queryId;
    private Progress progress = Progress.ZERO;
    private ProfileInfo profileInfo;
    private TableColumns tableColumns;
    private Block lastBlock;

    /** The last finished insert's block, kept with its capacity for the next insert. */
    private Block spareBlock;

    private NativeConnection(ConnectionConfig config, GuardedSocket.Layer layer) {
        this.config = config;
        this.guard = new InUseGuard("NativeConnection to " + config.address());
        this.compressed = config.compression() != CompressionMethod.NONE;
        try {
            this.tls = layer != null ? layer : config.secure() ? TlsSockets.layer(config) : null;
        } catch (IOException e) {
            throw new ConnectionException(
                    "cannot connect to ClickHouse at " + config.address() + ": " + describe(e), e);
        }
        this.encoder =
                compressed ? new FrameEncoder(config.compression(), config.zstdLevel()) : null;
        try {
            attach(openSocket());
            ServerHello hello = handshake();
            this.revision =
                    ProtocolRevision.negotiate(ProtocolRevision.CLIENT_REVISION, hello.revision());
            this.server = ServerInfo.from(hello, revision);
            sendAddendum();
            socket.endOperation(); // the open deadline ends with the handshake
        } catch (RuntimeException e) {
            // Whatever failed — the handshake, the addendum — nothing of this connection stays
            // open.
            if (socket != null) {
                socket.close();
            }
            if (encoder != null) {
                encoder.close(); // its native compression context
            }
            throw e;
        }
    }

    /** Connects, performs the handshake and returns an idle connection. */
    public static NativeConnection open(ConnectionConfig config) {
        if (config.transport() != ConnectionConfig.Transport.NATIVE) {
            throw new IllegalArgumentException(
                    "NativeConnection needs a clickhouse:// URL, not " + config);
        }
        return new NativeConnection(config, null);
    }

    /**
     * Opens with {@code layer} over the TCP socket instead of the configured TLS: the seam through
     * which tests inject faults at exact points of the handshake.
     */
    static NativeConnection open(ConnectionConfig config, GuardedSocket.Layer layer) {
        return new NativeConnection(config, layer);
    }

    public static NativeConnection open(String url) {
        return open(ConnectionConfig.parse(url));
    }

    /** A connected socket (TLS when configured) under the open deadline, or a clear failure. */
    private GuardedSocket openSocket() {
        try {
            return GuardedSocket.connect(
                    config.host(),
                    config.port(),
                    new GuardedSocket.Timeouts(
                            config.connectTimeout(), config.readTimeout(), config.writeTimeout()),
                    tls);
        } catch (IOException e) {
            throw new ConnectionException(
                    "cannot connect to ClickHouse at " + config.address() + ": " + describe(e), e);
        }
    }

    /** Makes {@code socket} the one this connection talks through. */
    private void attach(GuardedSocket socket) {
        this.socket = socket;
        this.in = new WireInput(socket.input(), INPUT_BUFFER_BYTES);
        this.out = new WireOutput(RAW_OUTPUT_BYTES, this::writeToSocket);
        if (compressed) {
            this.blockOut = new WireOutput(FrameEncoder.MAX_FRAME_INPUT, encoder.drainInto(out));
            this.blockIn = new WireInput(new FrameInputStream(in), INPUT_BUFFER_BYTES);
        } else {
            this.blockOut = out;
            this.blockIn = in;
        }
        this.initialAddress = InitialAddress.format(socket.localAddress());
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
            throw new ConnectionException(
                    "handshake with ClickHouse at " + config.address() + " failed: " + reason(e),
                    e);
        }
    }

    private void sendAddendum() {
        if (revision >= ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_ADDENDUM) {
            try {
                new Addendum("").write(out, revision);
                out.flush();
            } catch (WireException e) {
                throw new ConnectionException(
                        "handshake with ClickHouse at "
                                + config.address()
                                + " failed while sending the addendum: "
                                + reason(e),
                        e);
            }
        }
    }

    /**
     * Replaces the socket with a fresh one to the same server, after the server ended a query with
     * an exception, and replays the session's SET and USE statements. A server that now answers
     * with another revision is a different server: the connection is then broken.
     */
    private void reconnect() {
        stale = false;
        socket.close();
        try {
            attach(openSocket());
            ServerHello hello = handshake();
            int again =
                    ProtocolRevision.negotiate(ProtocolRevision.CLIENT_REVISION, hello.revision());
            if (again != revision) {
                markBroken(
                        "after reconnecting, the server negotiates revision "
                                + again
                                + " instead of "
                                + revision);
                socket.close();
                return;
            }
            sendAddendum();
            socket.endOperation();
        } catch (ClickHouseException | WireException e) {
            markBroken("reconnecting failed: " + e.getMessage());
            socket.close();
            return;
        }
        restoreSession();
    }

    /** Runs the session statements again on a fresh socket; any failure breaks the connection. */
    private void restoreSession() {
        quietEvents = true;
        try {
            for (String statement : sessionStatements) {
                String context =
                        "restoring the session after a reconnect: " + abbreviate(statement);
                socket.beginOperation(config.operationTimeout(), deadlineReason(config));
                try {
                    startQuery(newQueryId(), statement, Map.of(), context);
                    while (nextPacket(context) != ServerPacketType.END_OF_STREAM) {
                        // a SET or USE has no result
                    }
                    state = State.IDLE;
                } catch (ServerException e) {
                    markBroken(context + " failed: " + e.getMessage());
                    socket.close();
                    return;
                } catch (WireException e) {
                    broken(context, e);
                    return;
                } finally {
                    socket.endOperation();
                }
            }
        } finally {
            quietEvents = false;
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
        State s = state;
        return s == State.IDLE || s == State.BUSY;
    }

    /**
     * True while an operation is in progress: a query running on another thread, or an {@link
     * Insert} not yet finished or closed.
     */
    public boolean isBusy() {
        return state == State.BUSY;
    }

    /**
     * Receives Progress, ProfileInfo, Log and ProfileEvents packets of the following operations, on
     * the thread that runs them; null for none. May be set from any thread.
     */
    public void setServerEventListener(ServerEventListener listener) {
        this.listener = listener;
    }

    // ---- Operations ----

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
        String id = options.queryId() != null ? options.queryId() : newQueryId();
        long started = System.nanoTime();
        boolean outer = enterStep(context, true);
        try {
            startQuery(
                    id,
                    sql.toString(),
                    InsertSettings.durable(server, config.settings(), settings),
                    context);
            while (true) {
                ServerPacketType t = nextPacket(context);
                if (t == ServerPacketType.DATA) {
                    Block header = lastBlock;
                    lastBlock = null;
                    return new Insert(
                            this,
                            table,
                            id,
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
        } catch (ListenerFailure f) {
            throw abandonAfterListener(context, f);
        } finally {
            exitStep(outer);
        }
    }

    /**
     * Inserts a block filled in advance (the pipeline builds blocks before it picks a connection).
     * The server's header must name the same columns with the same types. The operation deadline
     * covers the whole insert, up to the server's acknowledgement.
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
        String context = "INSERT INTO " + table;
        boolean outer = enterStep(context, true);
        try (Insert insert = insert(table, names, settings, options)) {
            String problem = headerMismatch(insert.block(), block, names);
            if (problem != null) {
                insert.finish(); // ends the INSERT with no rows; the connection stays usable
                throw new HeaderMismatchException(context + ": " + problem);
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
        } finally {
            exitStep(outer);
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
     * throws, the query is cancelled and the exception propagates. A {@link #cancel()} from another
     * thread ends it with a {@link CancelledException}; the connection stays usable.
     */
    @Override
    public QueryResult query(String sql, Map<String, String> settings, Consumer<Block> onBlock) {
        String id = newQueryId();
        String context = "query " + abbreviate(sql);
        boolean outer = enterStep(context, false);
        try {
            startQuery(id, sql, settings, context);
            long rows = 0;
            long blocks = 0;
            while (true) {
                ServerPacketType t;
                try {
                    t = nextPacket(context);
                } catch (ServerException e) {
                    if (isCancelled()) {
                        throw cancelled(context, true, e);
                    }
                    throw e;
                }
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    if (isCancelled()) {
                        throw cancelled(context, true, null);
                    }
                    rememberSessionStatement(sql);
                    return new QueryResult(id, rows, blocks, progress, profileInfo);
                }
                if (t == ServerPacketType.DATA && lastBlock.rows() > 0 && !isCancelled()) {
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
        } catch (ListenerFailure f) {
            cancelAndDrain(context);
            throw f.rethrow();
        } finally {
            exitStep(outer);
        }
    }

    /** Round trip to check the connection is alive (reconnecting first after a server error). */
    @Override
    public void ping() {
        boolean outer = enterStep("ping", false);
        try {
            writeLock.lock();
            try {
                ClientPacketType.PING.write(out);
                out.flush();
            } finally {
                writeLock.unlock();
            }
            while (true) {
                ServerPacketType t = ServerPacketType.read(in);
                if (t == ServerPacketType.PONG) {
                    state = State.IDLE;
                    return;
                }
                if (t != ServerPacketType.PROGRESS) {
                    throw broken("ping", new WireException("unexpected " + t + " before Pong"));
                }
                Progress.read(in, revision);
            }
        } catch (WireException e) {
            throw broken("ping", e);
        } finally {
            exitStep(outer);
        }
    }

    /**
     * Cancels the operation in progress, from any thread; returns false when there is none. A query
     * gets the protocol's Cancel packet and ends, once the server confirms, with a {@link
     * CancelledException} on the thread that runs it; the connection stays usable. An INSERT cannot
     * be taken back (the server writes each block as it arrives, and some versions take a Cancel
     * for the end of the data), so the connection is dropped instead: the server then aborts the
     * INSERT, blocks already sent may have been written, and the inserting thread gets a {@link
     * CancelledException}.
     */
    @Override
    public boolean cancel() {
        if (state != State.BUSY) {
            return false;
        }
        String by = Thread.currentThread().getName();
        String what = busyWith;
        cancelledBy = by;
        cancelledOperation = operationNumber;
        GuardedSocket s = socket;
        String reason = what + ": cancelled by thread '" + by + "'";
        if (busyIsInsert) {
            s.abort(reason);
            return true;
        }
        try {
            if (writeLock.tryLock(CANCEL_LOCK_MILLIS, TimeUnit.MILLISECONDS)) {
                try {
                    // One byte: the Cancel packet's code. Nothing else is buffered between packets.
                    s.write(new byte[] {(byte) ClientPacketType.CANCEL.code()}, 0, 1);
                } finally {
                    writeLock.unlock();
                }
            } else {
                s.abort(reason); // a write is stuck; its deadline would end it anyway
            }
        } catch (IOException e) {
            s.abort(reason);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            s.abort(reason);
        }
        return true;
    }

    // ---- Steps: the guard, the deadline and the state checks around every wire call ----

    /**
     * Enters a wire call for {@code what}: fails fast when another thread is inside; at the
     * outermost entry, checks the state (reconnecting after a server error), records what runs (an
     * {@code insert} is cancelled by dropping the connection) and arms the operation deadline.
     *
     * @return whether this is the outermost entry
     */
    private boolean enterStep(String what, boolean insert) {
        boolean outer = guard.enter(what);
        if (!outer) {
            return false;
        }
        try {
            checkIdle(what);
        } catch (RuntimeException e) {
            guard.exit();
            throw e;
        }
        beginOperation(what, insert);
        return true;
    }

    /** Enters a step of the running INSERT (a block, its finish). */
    boolean enterInsertStep(String what) {
        boolean outer = guard.enter(what);
        if (!outer) {
            return false;
        }
        State s = state;
        if (s != State.BUSY) {
            guard.exit();
            throw notUsable(what, s);
        }
        socket.beginOperation(config.operationTimeout(), deadlineReason(config));
        return true;
    }

    private void beginOperation(String what, boolean insert) {
        busyWith = what;
        busyThread = Thread.currentThread().getName();
        busyIsInsert = insert;
        operationNumber++;
        socket.beginOperation(config.operationTimeout(), deadlineReason(config));
    }

    /**
     * Leaves a wire call; at the outermost exit the deadline ends and a pending close completes.
     */
    void exitStep(boolean outer) {
        if (!outer) {
            guard.exit();
            return;
        }
        socket.endOperation();
        guard.exit();
        if (state == State.CLOSED) {
            releaseEncoder(); // closed by another thread while this one was inside
        }
    }

    private static String deadlineReason(ConnectionConfig config) {
        return "not finished within "
                + config.operationTimeout().toMillis()
                + " ms (operation_timeout)";
    }

    private boolean isCancelled() {
        return cancelledBy != null && cancelledOperation == operationNumber;
    }

    private CancelledException cancelled(String context, boolean kept, Throwable cause) {
        return new CancelledException(
                context
                        + ": cancelled by thread '"
                        + cancelledBy
                        + "'"
                        + (kept
                                ? ""
                                : "; the connection to "
                                        + config.address()
                                        + " was dropped, so the server aborts the INSERT (blocks"
                                        + " already sent may have been written)"),
                kept,
                cause);
    }

    // ---- Query plumbing ----

    private void startQuery(
            String queryId, String sql, Map<String, String> settings, String context) {
        progress = Progress.ZERO;
        profileInfo = null;
        tableColumns = null;
        lastBlock = null;
        this.queryId = queryId;
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
        writeLock.lock();
        try {
            int mark = out.position();
            try {
                packet.write(out, revision);
            } catch (IllegalArgumentException e) {
                out.truncate(mark); // nothing of the refused query reaches the server
                throw new ClickHouseException(
                        context + ": " + e.getMessage() + " (server " + server + ")", e);
            }
            state = State.BUSY;
            // No external tables: the empty block ends them.
            ClientPacketType.DATA.write(out);
            out.writeString("");
            NativeBlockCodec.writeEmpty(blockOut, revision);
            blockOut.flush();
            out.flush();
        } finally {
            writeLock.unlock();
        }
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
     * are absorbed here (and handed to the listener); a Data block is left in {@link #lastBlock};
     * an Exception ends the query and is thrown.
     */
    private ServerPacketType nextPacket(String context) {
        ServerPacketType t = ServerPacketType.read(in);
        switch (t) {
            case DATA, TOTALS, EXTREMES -> {
                in.readString(); // temporary table name
                lastBlock = NativeBlockCodec.read(blockIn, revision).block();
            }
            case PROGRESS -> {
                Progress increment = Progress.read(in, revision);
                progress = progress.plus(increment);
                notifyListener(l -> l.onProgress(queryId, increment));
            }
            case PROFILE_INFO -> {
                ProfileInfo info = ProfileInfo.read(in, revision);
                profileInfo = info;
                notifyListener(l -> l.onProfileInfo(queryId, info));
            }
            case TABLE_COLUMNS -> tableColumns = TableColumns.read(in, revision);
            case LOG -> {
                requireRevision(t, ProtocolRevision.DBMS_MIN_REVISION_WITH_SERVER_LOGS);
                // Always uncompressed at our revision (compression of these starts at 54481).
                in.readString();
                Block logs = NativeBlockCodec.read(in, revision).block();
                notifyListener(l -> l.onLog(queryId, LogEntry.fromBlock(logs)));
            }
            case PROFILE_EVENTS -> {
                requireRevision(
                        t,
                        ProtocolRevision.DBMS_MIN_PROTOCOL_VERSION_WITH_INCREMENTAL_PROFILE_EVENTS);
                in.readString();
                Block events = NativeBlockCodec.read(in, revision).block();
                notifyListener(l -> l.onProfileEvents(queryId, ProfileEvent.fromBlock(events)));
            }
            case TIMEZONE_UPDATE -> TimezoneUpdate.read(in, revision);
            case EXCEPTION -> {
                ServerExceptionInfo info = ServerExceptionInfo.read(in, revision);
                state = State.IDLE; // the server ended the query ...
                stale = true; // ... but may not have read all we sent for it
                throw new ServerException(info, context);
            }
            case END_OF_STREAM -> {}
            default -> throw new WireException("unexpected packet " + t + " from the server");
        }
        return t;
    }

    /** A packet the negotiated revision does not allow means the stream is out of step. */
    private void requireRevision(ServerPacketType t, int since) {
        if (revision < since) {
            throw new WireException(
                    "unexpected packet "
                            + t
                            + " at revision "
                            + revision
                            + " (sent from revision "
                            + since
                            + ")");
        }
    }

    private void notifyListener(Consumer<ServerEventListener> event) {
        ServerEventListener l = listener;
        if (l == null || quietEvents) {
            return;
        }
        try {
            event.accept(l);
        } catch (RuntimeException | Error e) {
            throw new ListenerFailure(e);
        }
    }

    /** Carries a listener's exception out of the packet loop to where the wire can be settled. */
    private static final class ListenerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ListenerFailure(Throwable cause) {
            super(cause.toString(), cause, false, false);
        }

        RuntimeException rethrow() {
            if (getCause() instanceof Error e) {
                throw e;
            }
            return (RuntimeException) getCause();
        }
    }

    /** Sends Cancel and reads until the server confirms the end of the query. */
    private void cancelAndDrain(String context) {
        try {
            writeLock.lock();
            try {
                ClientPacketType.CANCEL.write(out);
                out.flush();
            } finally {
                writeLock.unlock();
            }
            quietEvents = true;
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
            markBroken(reason(e));
            socket.close();
        } finally {
            quietEvents = false;
        }
    }

    private void rememberSessionStatement(String sql) {
        if (SESSION_STATEMENT.matcher(sql).matches()) {
            String statement = sql.strip();
            sessionStatements.remove(statement); // the latest position decides the final value
            sessionStatements.add(statement);
        }
    }

    // ---- Used by Insert ----

    /**
     * Sends one Data packet (the block ends on a frame boundary) and, when {@code poll}, reads what
     * the server sent meanwhile (an early Exception); returns the socket bytes written.
     */
    long sendBlock(Block block, String context, boolean poll) {
        boolean outer = enterInsertStep(context);
        try {
            long written = sendData(block, context);
            if (poll) {
                pollServer(context);
            }
            return written;
        } catch (ListenerFailure f) {
            throw abandonAfterListener(context, f);
        } finally {
            exitStep(outer);
        }
    }

    /** Reads what the server sent meanwhile, without sending anything. */
    void pollServerStep(String context) {
        boolean outer = enterInsertStep(context);
        try {
            pollServer(context);
        } catch (ListenerFailure f) {
            throw abandonAfterListener(context, f);
        } finally {
            exitStep(outer);
        }
    }

    private long sendData(Block block, String context) {
        long before = socketBytesWritten + out.position();
        writeLock.lock();
        try {
            ClientPacketType.DATA.write(out);
            out.writeString("");
            NativeBlockCodec.write(block, blockOut, revision);
            blockOut.flush();
            out.flush();
        } catch (WireException e) {
            throw failedWhileSending(context, e);
        } finally {
            writeLock.unlock();
        }
        return socketBytesWritten - before;
    }

    /**
     * Reads packets the server sent meanwhile (an early Exception), without blocking. Over TLS the
     * socket's own {@code available()} counts only decrypted bytes, so an exception waiting
     * encrypted would go unseen; {@link GuardedSocket#inputPending()} looks underneath.
     */
    private void pollServer(String context) {
        try {
            while (in.buffered() > 0 || socket.inputPending()) {
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
        boolean outer = enterInsertStep(context);
        try {
            sendData(EMPTY, context);
            while (true) {
                ServerPacketType t = nextPacket(context);
                if (t == ServerPacketType.END_OF_STREAM) {
                    state = State.IDLE;
                    return progress;
                }
            }
        } catch (WireException e) {
            throw broken(context, e);
        } catch (ListenerFailure f) {
            throw abandonAfterListener(context, f);
        } finally {
            exitStep(outer);
        }
    }

    /** An insert abandoned mid-stream: the only safe way out is to drop the connection. */
    void abandon(String reason) {
        markBroken(reason);
        socket.abort(reason);
    }

    private RuntimeException abandonAfterListener(String context, ListenerFailure f) {
        abandon(context + ": the server event listener threw " + f.getCause());
        return f.rethrow();
    }

    private ClickHouseException failedWhileSending(String context, WireException e) {
        // The server often explains why it stopped reading (a broken pipe after an
        // exception): look for its message before reporting a network failure.
        GuardedSocket s = socket;
        if (s.abortReason() == null) {
            try {
                s.setReadTimeout(Duration.ofSeconds(2));
                if (ServerPacketType.read(in) == ServerPacketType.EXCEPTION) {
                    ServerExceptionInfo info = ServerExceptionInfo.read(in, revision);
                    markBroken(reason(e));
                    s.close();
                    return new ServerException(info, context);
                }
            } catch (IOException | RuntimeException ignored) {
                // no explanation available; report the network failure
            }
        }
        return broken(context, e);
    }

    private ClickHouseException broken(String context, WireException e) {
        GuardedSocket s = socket;
        String aborted = s.abortReason();
        markBroken(aborted != null ? aborted : reason(e));
        s.close();
        if (isCancelled()) {
            return cancelled(context, false, e);
        }
        if (aborted != null) {
            return new ConnectionException(
                    context
                            + ": "
                            + aborted
                            + "; the connection to "
                            + config.address()
                            + " is closed",
                    e);
        }
        Throwable cause = e.getCause() != null ? e.getCause().getCause() : null;
        if (cause instanceof SocketTimeoutException) {
            return new ConnectionException(
                    context
                            + ": no answer from "
                            + config.address()
                            + " within "
                            + config.readTimeout().toMillis()
                            + " ms (read_timeout)",
                    e);
        }
        if (e.getCause() != null || e.getMessage().startsWith("unexpected end of stream")) {
            return new ConnectionException(
                    context + ": connection to " + config.address() + " lost: " + e.getMessage(),
                    e);
        }
        return new ProtocolException(context + ": " + e.getMessage(), e);
    }

    /** The abort reason behind a wire failure, when a deadline, cancel or close caused it. */
    private static String reason(WireException e) {
        Throwable c = e.getCause();
        if (c != null && c.getCause() instanceof SocketAbortedException aborted) {
            return aborted.getMessage();
        }
        return e.getMessage();
    }

    private void markBroken(String reason) {
        if (state != State.CLOSED) {
            state = State.BROKEN;
            brokenReason = reason;
        }
    }

    /** Fails unless the connection can start an operation; reconnects after a server error. */
    private void checkIdle(String what) {
        if (state == State.IDLE && stale) {
            reconnect();
        }
        State s = state;
        if (s != State.IDLE) {
            throw notUsable(what, s);
        }
    }

    private RuntimeException notUsable(String what, State s) {
        return switch (s) {
            case IDLE -> new IllegalStateException(what + ": no INSERT is in progress");
            case BUSY ->
                    new IllegalStateException(
                            what
                                    + ": the connection is busy with "
                                    + busyWith
                                    + " (started on thread '"
                                    + busyThread
                                    + "'); a connection runs one operation at a time");
            case BROKEN ->
                    new ConnectionException(
                            what
                                    + ": the connection to "
                                    + config.address()
                                    + " is broken ("
                                    + brokenReason
                                    + ")");
            case CLOSED -> new IllegalStateException(what + ": the connection is closed");
        };
    }

    private void writeToSocket(byte[] buf, int off, int len) {
        try {
            socket.write(buf, off, len);
            socketBytesWritten += len;
        } catch (IOException e) {
            throw WireException.io("write to " + config.address() + " failed", e);
        }
    }

    /**
     * Closes the connection. From another thread while an operation runs, the socket is closed
     * under it: that operation fails with a {@link ConnectionException} saying so.
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        Thread inside = guard.holder();
        GuardedSocket s = socket;
        if (inside != null && inside != Thread.currentThread()) {
            // The thread inside may be compressing: it frees the encoder on its way out.
            s.abort(
                    "the connection was closed by thread '"
                            + Thread.currentThread().getName()
                            + "'");
            return;
        }
        s.close();
        releaseEncoder();
    }

    private void releaseEncoder() {
        if (encoder != null) {
            encoder.close(); // idempotent
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
