package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The pool's rules with stand-in connections and a clock the test moves. */
class ConnectionPoolTest {
    private static final ServerInfo SERVER =
            new ServerInfo("ClickHouse", 18, 16, 1, 54412, 54412, "UTC", "test");

    /** A stand-in connection: counts its users, pings and closes. */
    static final class Conn implements BlockInserter {
        final int id;
        volatile boolean open = true;
        volatile boolean failPing;
        final AtomicInteger users = new AtomicInteger();
        final AtomicInteger pings = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();

        Conn(int id) {
            this.id = id;
        }

        @Override
        public InsertResult insert(
                String table, Block block, Map<String, String> settings, String queryId) {
            return new InsertResult(queryId, block.rows(), 1, 0, 0, -1, -1, 0);
        }

        @Override
        public ServerInfo server() {
            return SERVER;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
            closes.incrementAndGet();
        }
    }

    /** Real time plus what the test adds, so that waits still end. */
    private final AtomicLong offset = new AtomicLong();

    private final List<Conn> made = new ArrayList<>();
    private final AtomicBoolean failOpen = new AtomicBoolean();

    private long now() {
        return System.nanoTime() + offset.get();
    }

    private void advance(Duration d) {
        offset.addAndGet(d.toNanos());
    }

    private ConnectionPool<Conn> pool(PoolOptions options) {
        return new ConnectionPool<>(
                "test pool",
                () -> {
                    if (failOpen.get()) {
                        throw new ConnectionException("cannot connect to ClickHouse at test:9000");
                    }
                    synchronized (made) {
                        Conn c = new Conn(made.size());
                        made.add(c);
                        return c;
                    }
                },
                c -> {
                    c.pings.incrementAndGet();
                    if (c.failPing) {
                        throw new ConnectionException("ping failed");
                    }
                },
                options,
                this::now,
                false);
    }

    private static final PoolOptions OPTIONS =
            PoolOptions.DEFAULTS
                    .withMaxSize(2)
                    .withBorrowTimeout(Duration.ZERO)
                    .withPingAfterIdle(Duration.ofSeconds(30))
                    .withMaxIdleTime(Duration.ofMinutes(10))
                    .withMaxLifetime(Duration.ofHours(1));

    @Test
    void opensLazilyUpToTheMaximumAndLendsTheMostRecentlyReturnedFirst() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS)) {
            assertThat(pool.stats().open()).isZero();
            ConnectionPool.Lease<Conn> a = pool.borrow();
            ConnectionPool.Lease<Conn> b = pool.borrow();
            assertThat(made).hasSize(2);
            Conn first = a.connection();
            Conn second = b.connection();
            a.close();
            b.close();
            try (ConnectionPool.Lease<Conn> again = pool.borrow()) {
                assertThat(again.connection()).isSameAs(second);
            }
            assertThat(made).hasSize(2);
            assertThat(first.closes.get()).isZero();
            PoolStats s = pool.stats();
            assertThat(s.open()).isEqualTo(2);
            assertThat(s.idle()).isEqualTo(2);
            assertThat(s.inUse()).isZero();
            assertThat(s.borrows()).isEqualTo(3);
            assertThat(s.opened()).isEqualTo(2);
        }
    }

    @Test
    void aBorrowBeyondTheMaximumFailsAtItsDeadlineWithTheNumbers() {
        PoolOptions options = OPTIONS.withBorrowTimeout(Duration.ofMillis(150));
        try (ConnectionPool<Conn> pool = pool(options)) {
            ConnectionPool.Lease<Conn> a = pool.borrow();
            ConnectionPool.Lease<Conn> b = pool.borrow();
            long started = System.nanoTime();
            assertThatThrownBy(pool::borrow)
                    .isInstanceOf(PoolExhaustedException.class)
                    .hasMessageStartingWith("test pool: no connection free within ")
                    .hasMessageContaining("ms (borrow timeout): all 2 of maxSize 2 in use")
                    .hasMessageEndingWith("0 other threads waiting")
                    .satisfies(
                            e -> {
                                PoolExhaustedException p = (PoolExhaustedException) e;
                                assertThat(p.maxSize()).isEqualTo(2);
                                assertThat(p.waited())
                                        .isGreaterThanOrEqualTo(Duration.ofMillis(150));
                            });
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(150));
            assertThat(pool.stats().borrowTimeouts()).isOne();
            a.close();
            b.close();
        }
    }

    @Test
    void aWaitingBorrowerGetsTheConnectionAnotherThreadGivesBack() throws Exception {
        try (ConnectionPool<Conn> pool =
                pool(OPTIONS.withMaxSize(1).withBorrowTimeout(Duration.ofSeconds(30)))) {
            ConnectionPool.Lease<Conn> held = pool.borrow();
            Conn only = held.connection();
            CompletableFuture<Conn> waiter =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try (ConnectionPool.Lease<Conn> l = pool.borrow()) {
                                    return l.connection();
                                }
                            });
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.stats().waiting() == 0 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(pool.stats().waiting()).isOne();
            held.close();
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isSameAs(only);
            assertThat(pool.stats().waitNanosMax()).isPositive();
        }
    }

    @Test
    void aConnectionIdleBeyondThePingThresholdIsPingedAndReplacedWhenItFails() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS)) {
            pool.borrow().close();
            Conn c = made.get(0);
            advance(Duration.ofSeconds(10));
            pool.borrow().close(); // fresh enough: its state is the whole check
            assertThat(c.pings.get()).isZero();
            advance(Duration.ofSeconds(31));
            pool.borrow().close();
            assertThat(c.pings.get()).isOne();
            c.failPing = true;
            advance(Duration.ofSeconds(31));
            try (ConnectionPool.Lease<Conn> l = pool.borrow()) {
                assertThat(l.connection()).isNotSameAs(c);
            }
            assertThat(c.closes.get()).isOne();
            assertThat(pool.stats().healthCheckFailures()).isOne();
            assertThat(pool.stats().open()).isOne();
        }
    }

    @Test
    void aConnectionGivenBackBrokenIsClosedNotLentAgain() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS)) {
            ConnectionPool.Lease<Conn> l = pool.borrow();
            Conn c = l.connection();
            c.open = false; // a network error broke it while lent
            l.close();
            assertThat(c.closes.get()).isOne();
            assertThat(pool.stats().closedBroken()).isOne();
            assertThat(pool.stats().open()).isZero();
            try (ConnectionPool.Lease<Conn> next = pool.borrow()) {
                assertThat(next.connection()).isNotSameAs(c);
            }
            ConnectionPool.Lease<Conn> d = pool.borrow();
            Conn discarded = d.connection();
            d.discard();
            assertThat(discarded.closes.get()).isOne();
            assertThatThrownBy(d::connection)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already returned");
        }
    }

    @Test
    void idleConnectionsAreClosedAfterTheMaximumIdleTime() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS)) {
            ConnectionPool.Lease<Conn> a = pool.borrow();
            ConnectionPool.Lease<Conn> b = pool.borrow();
            a.close();
            advance(Duration.ofMinutes(6));
            b.close();
            advance(Duration.ofMinutes(5)); // a: 11 min idle, b: 5 min
            pool.evictIdle();
            assertThat(made.get(0).closes.get()).isOne();
            assertThat(made.get(1).open).isTrue();
            PoolStats s = pool.stats();
            assertThat(s.closedIdle()).isOne();
            assertThat(s.open()).isOne();
            assertThat(s.idle()).isOne();
        }
    }

    @Test
    void connectionsOlderThanTheMaximumLifetimeAreRetired() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS)) {
            ConnectionPool.Lease<Conn> held = pool.borrow();
            pool.borrow().close();
            advance(Duration.ofMinutes(61));
            // The idle one is too old to lend: a new one takes its place.
            try (ConnectionPool.Lease<Conn> l = pool.borrow()) {
                assertThat(l.connection()).isSameAs(made.get(2));
            }
            assertThat(made.get(1).closes.get()).isOne();
            // The lent one is closed when it comes back.
            held.close();
            assertThat(made.get(0).closes.get()).isOne();
            assertThat(pool.stats().closedLifetime()).isEqualTo(2);
        }
    }

    @Test
    void aFailedOpenGivesItsSlotBack() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS.withMaxSize(1))) {
            failOpen.set(true);
            assertThatThrownBy(pool::borrow)
                    .isInstanceOf(ConnectionException.class)
                    .hasMessageContaining("test:9000");
            failOpen.set(false);
            pool.borrow().close();
            PoolStats s = pool.stats();
            assertThat(s.openFailures()).isOne();
            assertThat(s.open()).isOne();
        }
    }

    @Test
    void closingThePoolClosesIdleConnectionsNowAndLentOnesWhenReturned() throws Exception {
        ConnectionPool<Conn> pool =
                pool(OPTIONS.withMaxSize(2).withBorrowTimeout(Duration.ofSeconds(30)));
        ConnectionPool.Lease<Conn> lent = pool.borrow();
        pool.borrow().close();
        pool.close();
        assertThat(made.get(1).closes.get()).isOne();
        assertThat(made.get(0).open).isTrue();
        lent.close();
        assertThat(made.get(0).closes.get()).isOne();
        assertThat(pool.isOpen()).isFalse();
        assertThatThrownBy(pool::borrow)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("test pool is closed");
    }

    @Test
    void waitersAreWokenAndFailWhenThePoolCloses() throws Exception {
        ConnectionPool<Conn> pool =
                pool(OPTIONS.withMaxSize(1).withBorrowTimeout(Duration.ofSeconds(60)));
        ConnectionPool.Lease<Conn> held = pool.borrow();
        CompletableFuture<Throwable> waiter =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                pool.borrow();
                                return null;
                            } catch (RuntimeException e) {
                                return e;
                            }
                        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.stats().waiting() == 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        pool.close();
        assertThat(waiter.get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("test pool is closed");
        held.close();
    }

    @Test
    void manyThreadsNeverShareAConnectionNorExceedTheMaximum() throws Exception {
        int threads = 16;
        int rounds = 300;
        try (ConnectionPool<Conn> pool =
                pool(OPTIONS.withMaxSize(4).withBorrowTimeout(Duration.ofSeconds(60)))) {
            ExecutorService exec = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger shared = new AtomicInteger();
            AtomicInteger maxInUse = new AtomicInteger();
            AtomicInteger inUse = new AtomicInteger();
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(
                            exec.submit(
                                    () -> {
                                        start.await();
                                        for (int i = 0; i < rounds; i++) {
                                            try (ConnectionPool.Lease<Conn> l = pool.borrow()) {
                                                maxInUse.accumulateAndGet(
                                                        inUse.incrementAndGet(), Math::max);
                                                if (l.connection().users.incrementAndGet() != 1) {
                                                    shared.incrementAndGet();
                                                }
                                                Thread.onSpinWait();
                                                l.connection().users.decrementAndGet();
                                                inUse.decrementAndGet();
                                            }
                                        }
                                        return null;
                                    }));
                }
                start.countDown();
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                exec.shutdownNow();
            }
            assertThat(shared.get()).as("a connection lent to two threads at once").isZero();
            assertThat(maxInUse.get()).isLessThanOrEqualTo(4);
            assertThat(made.size()).isLessThanOrEqualTo(4);
            PoolStats s = pool.stats();
            assertThat(s.borrows()).isEqualTo((long) threads * rounds);
            assertThat(s.inUse()).isZero();
            assertThat(s.waiting()).isZero();
        }
    }

    @Test
    void thePoolInsertsThroughABorrowedConnectionAndTellsTheServer() {
        try (ConnectionPool<Conn> pool = pool(OPTIONS)) {
            assertThat(pool.server()).isEqualTo(SERVER);
            Block block = Block.forHeader(List.of("x"), List.of("UInt8"));
            block.column(0).appendLong(1);
            assertThat(pool.insert("t", block, Map.of(), "q1").rows()).isOne();
            assertThat(pool.stats().inUse()).isZero();
            assertThat(pool.stats().borrows()).isEqualTo(2);
        }
    }

    @Test
    void optionsRejectNonsense() {
        assertThatThrownBy(() -> PoolOptions.DEFAULTS.withMaxSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxSize");
        assertThatThrownBy(() -> PoolOptions.DEFAULTS.withMaxIdleTime(Duration.ZERO))
                .hasMessageContaining("maxIdleTime must be positive");
        assertThatThrownBy(() -> PoolOptions.DEFAULTS.withBorrowTimeout(Duration.ofSeconds(-1)))
                .hasMessageContaining("borrowTimeout must be zero or positive");
    }
}
