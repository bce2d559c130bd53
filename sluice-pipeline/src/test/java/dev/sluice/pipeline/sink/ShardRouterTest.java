package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShardRouterTest {

    @Test
    void theChoiceDependsOnlyOnPartitionAndFirstPosition() {
        ShardRouter a = new ShardRouter(List.of(1, 1, 1));
        ShardRouter b = new ShardRouter(List.of(1, 1, 1));
        for (long pos = 0; pos < 1000; pos += 37) {
            assertThat(a.shardFor("part", pos)).isEqualTo(b.shardFor("part", pos));
        }
    }

    @Test
    void batchesSpreadByWeight() {
        ShardRouter r = new ShardRouter(List.of(1, 3));
        int[] counts = new int[2];
        for (long pos = 0; pos < 40_000; pos++) {
            counts[r.shardFor("p", pos * 100)]++;
        }
        assertThat(counts[0]).isBetween(9_000, 11_000);
        assertThat(counts[1]).isBetween(29_000, 31_000);
    }

    @Test
    void oneShardTakesEverything() {
        assertThat(new ShardRouter(List.of(5)).shardFor("x", 42)).isZero();
    }
}
