package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void withoutJitterTheDelaysDoubleUpToTheCap() {
        Backoff b =
                new Backoff(
                        new RetrySpec(Duration.ofMillis(100), Duration.ofMillis(1000), 2.0, 0, 0),
                        new Random(1));
        long[] delays = new long[7];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = b.delayNanos(i + 1) / 1_000_000;
        }
        assertThat(delays).containsExactly(100, 200, 400, 800, 1000, 1000, 1000);
    }

    @RepeatedTest(20)
    void jitterKeepsEachDelayWithinItsBounds() {
        Random seeds = new Random();
        Backoff b =
                new Backoff(
                        new RetrySpec(Duration.ofMillis(100), Duration.ofSeconds(5), 3.0, 0.25, 0),
                        new Random(seeds.nextLong()));
        for (int round = 1; round <= 8; round++) {
            double base = Math.min(100e6 * Math.pow(3, round - 1), 5e9);
            assertThat((double) b.delayNanos(round)).isBetween(base * 0.75, base * 1.25);
        }
    }

    @Test
    void jitterSpreadsWritersThatFailedTogether() {
        RetrySpec spec = new RetrySpec(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 0.2, 0);
        Backoff a = new Backoff(spec, new Random(1));
        Backoff b = new Backoff(spec, new Random(2));
        assertThat(a.delayNanos(1)).isNotEqualTo(b.delayNanos(1));
    }

    @Test
    void maxAttemptsZeroMeansForever() {
        Backoff forever =
                new Backoff(
                        new RetrySpec(Duration.ofMillis(1), Duration.ofMillis(1), 1, 0, 0),
                        new Random());
        assertThat(forever.exhausted(1_000_000)).isFalse();
        Backoff three =
                new Backoff(
                        new RetrySpec(Duration.ofMillis(1), Duration.ofMillis(1), 1, 0, 3),
                        new Random());
        assertThat(three.exhausted(2)).isFalse();
        assertThat(three.exhausted(3)).isTrue();
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(
                        () ->
                                new Backoff(
                                        new RetrySpec(
                                                Duration.ofSeconds(2),
                                                Duration.ofSeconds(1),
                                                2,
                                                0,
                                                0),
                                        new Random()))
                .hasMessageContaining("initial ≤ max");
        assertThatThrownBy(
                        () ->
                                new Backoff(
                                        new RetrySpec(
                                                Duration.ofSeconds(1),
                                                Duration.ofSeconds(1),
                                                2,
                                                1.5,
                                                0),
                                        new Random()))
                .hasMessageContaining("jitter");
    }
}
