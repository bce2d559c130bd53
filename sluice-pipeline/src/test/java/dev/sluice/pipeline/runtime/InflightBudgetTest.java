package dev.sluice.pipeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InflightBudgetTest {

    @Test
    void pausesAtTheHighWatermarkAndResumesOnlyAtTheLowOne() {
        AtomicInteger pauses = new AtomicInteger();
        InflightBudget b = new InflightBudget(1000, 0.8, 0.5, pauses::incrementAndGet);

        b.acquire(799);
        assertThat(b.paused()).isFalse();
        b.acquire(1);
        assertThat(b.paused()).isTrue();
        assertThat(pauses.get()).isEqualTo(1);

        b.release(299); // 501: between the watermarks
        assertThat(b.paused()).isTrue();
        b.acquire(100); // no second pause event while paused
        b.release(101); // 500
        assertThat(b.paused()).isFalse();

        b.acquire(299);
        assertThat(b.paused()).isFalse();
        b.acquire(1);
        assertThat(b.paused()).isTrue();
        assertThat(pauses.get()).isEqualTo(2);
        assertThat(b.used()).isEqualTo(800);
    }

    @Test
    void resumingWakesTheRegisteredThreads() throws Exception {
        InflightBudget b = new InflightBudget(100, 0.8, 0.5, () -> {});
        b.acquire(90);
        Thread waiter =
                new Thread(
                        () -> {
                            while (b.paused()) {
                                java.util.concurrent.locks.LockSupport.park();
                            }
                        });
        b.wakeOnResume(waiter);
        waiter.start();
        b.release(60);
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
    }

    @Test
    void watermarksMustMakeSense() {
        assertThatThrownBy(() -> new InflightBudget(100, 0.5, 0.8, () -> {}))
                .hasMessageContaining("0 < low < high ≤ 1");
        assertThatThrownBy(() -> new InflightBudget(0, 0.8, 0.5, () -> {}))
                .hasMessageContaining("positive");
    }
}
