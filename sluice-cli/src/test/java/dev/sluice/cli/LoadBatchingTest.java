package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.config.ConfigDefaults;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code sluice load}'s batch sizes when not told: parts as clickhouse-client makes them. */
class LoadBatchingTest {
    private static final long GIB = 1L << 30;
    private static final long MIB = 1L << 20;

    @Test
    void filesAreSealedBySizeAloneAtClickhouseClientsBlockSize() {
        BatchSpec b = LoadBatching.batch(false, null, null, null, 4, 8 * GIB);
        assertThat(b.maxRows()).isEqualTo(1_048_576);
        assertThat(b.maxBytes()).isEqualTo(256 * MIB);
        assertThat(b.linger()).isGreaterThanOrEqualTo(Duration.ofDays(1));
    }

    @Test
    void stdinKeepsTheStreamingDefaultsForItMayBeAStream() {
        BatchSpec b = LoadBatching.batch(true, null, null, null, 3, 8 * GIB);
        assertThat(b.maxRows()).isEqualTo(ConfigDefaults.BATCH_MAX_ROWS);
        assertThat(b.maxBytes()).isEqualTo(ConfigDefaults.BATCH_MAX_BYTES);
        assertThat(b.linger()).isEqualTo(ConfigDefaults.BATCH_LINGER);
    }

    @Test
    void whatTheUserGaveWins() {
        BatchSpec b = LoadBatching.batch(false, 1000, 5 * MIB, Duration.ofMillis(200), 4, 8 * GIB);
        assertThat(b).isEqualTo(new BatchSpec(1000, 5 * MIB, Duration.ofMillis(200)));
        BatchSpec s = LoadBatching.batch(true, 7, 9L, Duration.ofSeconds(3), 3, 8 * GIB);
        assertThat(s).isEqualTo(new BatchSpec(7, 9, Duration.ofSeconds(3)));
    }

    /** The sizing rule's budget, slots × 2 × max_bytes / high, must fit in half the heap. */
    @Test
    void aSmallHeapLowersTheByteCapSoThatTheBudgetFits() {
        // 1 GiB heap, 4 slots: 0.5 × 0.8 × 1 GiB / 8 = 51.2 MiB → 51 MiB
        assertThat(LoadBatching.fileMaxBytes(4, GIB)).isEqualTo(51 * MIB);
        long cap = LoadBatching.fileMaxBytes(6, 2 * GIB);
        double budget = 6 * 2.0 * cap / ConfigDefaults.HIGH_WATERMARK;
        assertThat(budget).isLessThanOrEqualTo(0.5 * 2 * GIB);
        assertThat(cap % MIB).isZero();
        // never below 16 MiB, never above 256 MiB
        assertThat(LoadBatching.fileMaxBytes(64, 256 * MIB)).isEqualTo(16 * MIB);
        assertThat(LoadBatching.fileMaxBytes(1, 64 * GIB)).isEqualTo(256 * MIB);
    }

    @Test
    void lingerIsADurationOrNone() {
        assertThat(LoadBatching.parseLinger("none")).isEqualTo(LoadBatching.NO_LINGER);
        assertThat(LoadBatching.parseLinger("off")).isEqualTo(LoadBatching.NO_LINGER);
        assertThat(LoadBatching.parseLinger("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThatThrownBy(() -> LoadBatching.parseLinger("soon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("soon");
    }
}
