package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.net.Watchdog;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Connections shared between threads: each thread borrows one, uses it alone, and gives it back.
 * Thread-safe.
 *
 * <pre>{@code
 * try (ConnectionPool<ClickHouseClient> pool =
 *         ConnectionPool.open(ConnectionConfig.parse(url), PoolOptions.DEFAULTS.withMaxSize(4))) {
 *     // from any number of threads:
 *     pool.insert("db.events", block, Map.of(), null);          // borrow, insert, give back
 *     try (ConnectionPool.Lease<ClickHouseClient> lease = pool.borrow()) {
 *         lease.connection().queryRows("SELECT count() FROM db.events");
 *     }
 * }
 * }</pre>
 *
 * <ul>
 *   <li>At most {@link PoolOptions#maxSize()} connections; a borrow when all are lent waits up to
 *       {@link PoolOptions#borrowTimeout()}, then fails with a {@link PoolExhaustedException}
 *       carrying the numbers.
 *   <li>Health check on borrow: the connection's own state (open, not broken, no operation left
 *       running), and a ping when it sat idle longer than {@link PoolOptions#pingAfterIdle()}; a
 *       connection that fails is closed and another one lent.
 *   <li>Idle connections are closed after {@link PoolOptions#maxIdleTime()}, and every connection
 *       after {@link PoolOptions#maxLifetime()} (when next idle), checked on borrow, on return and
 *       by a periodic housekeeping task on the library's watchdog thread.
 *   <li>A connection given back broken (a network error, a deadline, an abandoned insert) is
 *       closed, not lent again.
 * </ul>
 *
 * Modelled on ch-go's {@code chpool}: lent most-recently-used first, so that a quiet period lets
 * the surplus idle out.
 *
 * @param <C> the connection type: {@link ClickHouseClient} for either transport, or any {@link
 *     BlockInserter}
 */
public final class ConnectionPool<C extends BlockInserter> implements BlockInserter {

    /** A borrowed connection; closing the lease gives it back. Not for use by two threads. */
    public static final class Lease<C extends BlockInserter> implements AutoCloseable {
        private final ConnectionPool<C> pool;
        private final ConnectionPool<C>.Entry entry;
        private boolean returned;

        private Lease(ConnectionPool<C> pool, ConnectionPool<C>.Entry entry) {
            this.pool = pool;
            this.entry = entry;
        }

        /** The connection, for this lease's holder alone until {@link #close()}. */
        public C connection() {
            if (returned) {
                throw new IllegalStateException(pool.name + ": the lease was already returned");
            }
            return entry.connection;
        }

        /** Gives the connection back (closed instead when it is broken or too old). */
        @Override
        public void close() {
            if (!returned) {
                returned = true;
                pool.release(entry, false);
            }
        }

        /** Closes the connection instead of giving it back, for a holder who knows it is bad. */
        public void discard() {
            if (!returned) {
                returned = true;
                pool.release(entry, true);
            }
        }
    }

    private final class Entry {
        final C connection;
        final long createdNanos;
        long idleSinceNanos;

        Entry(C connection, long now) {
            this.connection = connection;
            this.createdNanos = now;
            this.idleSinceNanos = now;
        }
    }

    private final String name;
    private final Supplier<? extends C> opener;
    private final Consumer<? super C> ping;
    private final PoolOptions options;
    private final LongSupplier clock;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();
    private final ArrayDeque<Entry> idle = new ArrayDeque<>(); // most recently returned first
    private int open; // idle + lent + being opened
    private int waiting;
    private boolean closed;
    private volatile ServerInfo server;
    private final Watchdog.Timer housekeeping;

    // Statistics, under the lock.
    private long borrows;
    private long borrowTimeouts;
    private long opened;
    private long openFailures;
    private long healthCheckFailures;
    private long closedBroken;
    private long closedIdle;
    private long closedLifetime;
    private long waitNanosTotal;
    private long waitNanosMax;

    ConnectionPool(
            String name,
            Supplier<? extends C> opener,
            Consumer<? super C> ping,
            PoolOptions options,
            LongSupplier clock,
            boolean housekeep) {
        this.name = Objects.requireNonNull(name, "name");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.ping = Objects.requireNonNull(ping, "ping");
        this.options = Objects.requireNonNull(options, "options");
        this.clock = clock;
        this.housekeeping =
                housekeep
                        ? Watchdog.every(options.housekeepingPeriod().toNanos(), this::evictIdle)
                        : null;
    }

    /**
     * A pool of {@link ClickHouseClient}s for the URL's transport; the health check pings (native:
     * the Ping packet; HTTP: {@code /ping}). Opens nothing until the first borrow.
     */
    public static ConnectionPool<ClickHouseClient> open(
            ConnectionConfig config, PoolOptions options) {
        return new ConnectionPool<>(
                "ConnectionPool for " + config.address(),
                () -> ClickHouseClient.open(config),
                ClickHouseClient::ping,
                options,
                System::nanoTime,
                true);
    }

    /**
     * A pool of any connections: {@code opener} opens one, {@code ping} checks one that sat idle
     * (it throws when the connection is unusable).
     */
    public static <C extends BlockInserter> ConnectionPool<C> create(
            String name,
            Supplier<? extends C> opener,
            Consumer<? super C> ping,
            PoolOptions options) {
        return new ConnectionPool<>(name, opener, ping, options, System::nanoTime, true);
    }

    public PoolOptions options() {
        return options;
    }

    /**
     * Lends a connection: an idle one (most recently used first) that passes the health check, or a
     * new one while fewer than {@code maxSize} are open, or the first one given back within the
     * borrow timeout.
     *
     * @throws PoolExhaustedException when none became free within the borrow timeout
     * @throws ClickHouseException when opening a new connection failed
     * @throws IllegalStateException when the pool is closed
     */
    public Lease<C> borrow() {
        long started = clock.getAsLong();
        long deadline = started + options.borrowTimeout().toNanos();
        while (true) {
            Entry entry;
            boolean fresh = false;
            List<C> toClose = new ArrayList<>();
            lock.lock();
            try {
                while (true) {
                    checkOpen();
                    long now = clock.getAsLong();
                    entry = idle.pollFirst();
                    if (entry != null) {
                        if (!usable(entry.connection)) {
                            open--;
                            closedBroken++;
                            toClose.add(entry.connection);
                            continue;
                        }
                        if (now - entry.createdNanos >= options.maxLifetime().toNanos()) {
                            open--;
                            closedLifetime++;
                            toClose.add(entry.connection);
                            continue;
                        }
                        break;
                    }
                    if (open < options.maxSize()) {
                        open++; // the slot is ours while the connection opens outside the lock
                        fresh = true;
                        break;
                    }
                    long left = deadline - now;
                    if (left <= 0) {
                        borrowTimeouts++;
                        recordWait(now - started);
                        throw new PoolExhaustedException(
                                name, Duration.ofNanos(now - started), options.maxSize(), waiting);
                    }
                    waiting++;
                    try {
                        freed.awaitNanos(left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ClickHouseException(
                                name + ": interrupted while waiting for a connection", e);
                    } finally {
                        waiting--;
                    }
                }
            } finally {
                lock.unlock();
                closeAll(toClose);
            }
            if (fresh) {
                entry = openNew();
            } else if (clock.getAsLong() - entry.idleSinceNanos
                    >= options.pingAfterIdle().toNanos()) {
                try {
                    ping.accept(entry.connection);
                } catch (RuntimeException e) {
                    lock.lock();
                    try {
                        healthCheckFailures++;
                        open--;
                        freed.signal();
                    } finally {
                        lock.unlock();
                    }
                    closeQuietly(entry.connection);
                    continue; // another connection, within the same deadline
                }
            }
            lock.lock();
            try {
                borrows++;
                recordWait(clock.getAsLong() - started);
            } finally {
                lock.unlock();
            }
            return new Lease<>(this, entry);
        }
    }

    private Entry openNew() {
        C c;
        try {
            c = opener.get();
        } catch (RuntimeException | Error e) {
            lock.lock();
            try {
                open--;
                openFailures++;
                freed.signal();
            } finally {
                lock.unlock();
            }
            throw e;
        }
        if (server == null) {
            server = c.server();
        }
        lock.lock();
        try {
            opened++;
            if (closed) {
                open--;
                closeQuietly(c);
                throw new IllegalStateException(name + " is closed");
            }
        } finally {
            lock.unlock();
        }
        return new Entry(c, clock.getAsLong());
    }

    /** Borrows, runs {@code work} on the connection and gives it back (closed if it broke). */
    public <R> R withConnection(Function<? super C, R> work) {
        try (Lease<C> lease = borrow()) {
            return work.apply(lease.connection());
        }
    }

    /** Inserts through a borrowed connection; safe from any number of threads. */
    @Override
    public InsertResult insert(
            String table, Block block, Map<String, String> settings, String queryId) {
        return withConnection(c -> c.insert(table, block, settings, queryId));
    }

    /** The server of the pool's connections (opens one when none was opened yet). */
    @Override
    public ServerInfo server() {
        ServerInfo s = server;
        if (s == null) {
            s = withConnection(BlockInserter::server);
        }
        return s;
    }

    /** False once the pool is closed. */
    @Override
    public boolean isOpen() {
        lock.lock();
        try {
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    public PoolStats stats() {
        lock.lock();
        try {
            return new PoolStats(
                    options.maxSize(),
                    open,
                    idle.size(),
                    open - idle.size(),
                    waiting,
                    borrows,
                    borrowTimeouts,
                    opened,
                    openFailures,
                    healthCheckFailures,
                    closedBroken,
                    closedIdle,
                    closedLifetime,
                    waitNanosTotal,
                    waitNanosMax);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes idle connections past {@link PoolOptions#maxIdleTime()} or {@link
     * PoolOptions#maxLifetime()}, and broken ones. Runs periodically; callable at any time.
     */
    public void evictIdle() {
        List<C> toClose = new ArrayList<>();
        lock.lock();
        try {
            long now = clock.getAsLong();
            for (Iterator<Entry> it = idle.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (!usable(e.connection)) {
                    closedBroken++;
                } else if (now - e.createdNanos >= options.maxLifetime().toNanos()) {
                    closedLifetime++;
                } else if (now - e.idleSinceNanos >= options.maxIdleTime().toNanos()) {
                    closedIdle++;
                } else {
                    continue;
                }
                it.remove();
                open--;
                toClose.add(e.connection);
            }
            if (!toClose.isEmpty()) {
                freed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        closeAll(toClose);
    }

    private void release(Entry entry, boolean discard) {
        long now = clock.getAsLong();
        boolean keep = false;
        lock.lock();
        try {
            if (discard || closed || !usable(entry.connection)) {
                closedBroken += closed ? 0 : 1;
            } else if (now - entry.createdNanos >= options.maxLifetime().toNanos()) {
                closedLifetime++;
            } else {
                keep = true;
                entry.idleSinceNanos = now;
                idle.addFirst(entry);
            }
            if (!keep) {
                open--;
            }
            freed.signal();
        } finally {
            lock.unlock();
        }
        if (!keep) {
            closeQuietly(entry.connection);
        }
    }

    /** Open, not broken, and no operation left running (an insert never finished). */
    private static boolean usable(BlockInserter c) {
        return c.isOpen() && !(c instanceof NativeConnection n && n.isBusy());
    }

    private void recordWait(long nanos) {
        waitNanosTotal += nanos;
        waitNanosMax = Math.max(waitNanosMax, nanos);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
    }

    /**
     * Closes the idle connections and wakes waiting borrowers (they fail); connections still lent
     * are closed when given back.
     */
    @Override
    public void close() {
        List<C> toClose = new ArrayList<>();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Entry e : idle) {
                toClose.add(e.connection);
            }
            open -= idle.size();
            idle.clear();
            freed.signalAll();
        } finally {
            lock.unlock();
        }
        if (housekeeping != null) {
            housekeeping.cancel();
        }
        closeAll(toClose);
    }

    private void closeAll(List<C> connections) {
        for (C c : connections) {
            closeQuietly(c);
        }
    }

    private static void closeQuietly(BlockInserter c) {
        try {
            c.close();
        } catch (RuntimeException ignored) {
            // closing is best effort; the connection is dropped either way
        }
    }

    @Override
    public String toString() {
        return name + " " + stats();
    }
}
