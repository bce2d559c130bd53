package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InUseGuardTest {

    @Test
    void aSecondThreadFailsFastNamingTheOperationAndTheThreadInside() throws Exception {
        InUseGuard guard = new InUseGuard("NativeConnection to db:9000");
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        Thread first =
                new Thread(
                        () -> {
                            guard.enter("INSERT INTO t");
                            inside.countDown();
                            try {
                                leave.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            guard.exit();
                        },
                        "writer-1");
        first.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Throwable> second =
                CompletableFuture.supplyAsync(
                        () -> {
                            Thread.currentThread().setName("writer-2");
                            try {
                                guard.enter("query SELECT 1");
                                return null;
                            } catch (IllegalStateException e) {
                                return e;
                            }
                        });
        assertThat(second.get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "NativeConnection to db:9000: cannot run query SELECT 1 on thread"
                                + " 'writer-2': INSERT INTO t is running on thread 'writer-1'. A"
                                + " connection runs one operation at a time; give each thread its"
                                + " own connection (a ConnectionPool shares them)");
        leave.countDown();
        first.join(10_000);
        // Free again: another thread may enter.
        CompletableFuture<Boolean> third =
                CompletableFuture.supplyAsync(
                        () -> {
                            boolean outer = guard.enter("ping");
                            guard.exit();
                            return outer;
                        });
        assertThat(third.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theThreadInsideMayEnterAgain() {
        InUseGuard guard = new InUseGuard("c");
        assertThat(guard.enter("INSERT INTO t")).isTrue();
        assertThat(guard.enter("INSERT INTO t")).isFalse();
        assertThat(guard.isHeldByCurrentThread()).isTrue();
        assertThat(guard.exit()).isFalse();
        assertThat(guard.holder()).isEqualTo(Thread.currentThread());
        assertThat(guard.exit()).isTrue();
        assertThat(guard.holder()).isNull();
    }

    @Test
    void aFailedEntryLeavesTheGuardToItsHolder() throws Exception {
        InUseGuard guard = new InUseGuard("c");
        guard.enter("finishing INSERT INTO t");
        Throwable t =
                CompletableFuture.supplyAsync(
                                () -> {
                                    try {
                                        guard.enter("flush");
                                        return null;
                                    } catch (IllegalStateException e) {
                                        return (Throwable) e;
                                    }
                                })
                        .get(10, TimeUnit.SECONDS);
        assertThatThrownBy(
                        () -> {
                            throw t;
                        })
                .hasMessageContaining("finishing INSERT INTO t");
        assertThat(guard.holder()).isEqualTo(Thread.currentThread());
        guard.exit();
    }
}
