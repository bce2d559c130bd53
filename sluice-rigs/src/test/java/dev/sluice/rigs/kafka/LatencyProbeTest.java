package dev.sluice.rigs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.ColumnFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Quantiles of the rows' latency, whole and split where their INSERT began. */
class LatencyProbeTest {
    /** A block of {@code rows} rows produced at {@code first}, {@code first + 1}, ... ms. */
    private static Block produced(long first, int rows) {
        Block b = Block.of(List.of(ColumnFactory.create(LatencyProbe.COLUMN, "UInt64")));
        for (int r = 0; r < rows; r++) {
            b.column(0).appendLong(first + r);
        }
        return b;
    }

    @Test
    void nothingRecordedHasNoQuantile() {
        LatencyProbe p = new LatencyProbe();
        assertThat(p.quantile(0.99)).isNull();
        assertThat(p.quantile(LatencyProbe.Part.INSERT, 0.5)).isNull();
        assertThat(p.rows()).isZero();
    }

    @Test
    void eachRowCountsOnceInEveryPartAndThePartsAddUp() {
        LatencyProbe p = new LatencyProbe();
        // 1,000 rows produced over a second from t=0; their INSERT began at 1,200 ms and was
        // acknowledged at 1,500 ms
        p.record(produced(0, 1_000), 1_200, 1_500);
        // 1,000 more, produced from t=2,000; INSERT 3,100 → 4,100 (a slow one)
        p.record(produced(2_000, 1_000), 3_100, 4_100);

        assertThat(p.rows()).isEqualTo(2_000);
        // whole: first block 501..1,500 ms, second 1,101..2,100 ms
        assertThat(p.quantile(0.5)).isEqualTo(1.3);
        assertThat(p.quantile(1.0)).isEqualTo(2.1);
        assertThat(p.quantile(0.99)).isEqualTo(2.08);
        // before the INSERT: 201..1,200 and 101..1,100 ms
        assertThat(p.quantile(LatencyProbe.Part.BEFORE_INSERT, 1.0)).isEqualTo(1.2);
        assertThat(p.quantile(LatencyProbe.Part.BEFORE_INSERT, 0.5)).isEqualTo(0.65);
        // the INSERT: 300 ms for half the rows, 1,000 ms for the other half
        assertThat(p.quantile(LatencyProbe.Part.INSERT, 0.5)).isEqualTo(0.3);
        assertThat(p.quantile(LatencyProbe.Part.INSERT, 0.51)).isEqualTo(1.0);
    }

    @Test
    void latenciesBeyondAMinuteLandInTheLastBucketAndClockSkewInTheFirst() {
        LatencyProbe p = new LatencyProbe();
        p.record(produced(0, 10), 100_000, 100_500); // ~100 s
        p.record(produced(10_000, 10), 9_000, 9_500); // produced "after" the INSERT began
        assertThat(p.quantile(1.0)).isEqualTo(60.0);
        assertThat(p.quantile(0.5)).isEqualTo(0.0);
    }
}
