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

    @Test
    void giveUpAfterCountsFromTheFirstFailureAndCutsTheLastPause() {
        Backoff b =
                new Backoff(
                        new RetrySpec(
                                Duration.ofSeconds(1),
                                Duration.ofSeconds(30),
                                2.0,
                                0,
                                0,
                                Duration.ofMinutes(1)),
                        new Random(1));
        long s = 1_000_000_000L;
        assertThat(b.givesUp(5 * s, 64 * s)).isFalse();
        assertThat(b.givesUp(5 * s, 65 * s)).isTrue();
        assertThat(b.delayWithin(30 * s, 5 * s, 50 * s)).isEqualTo(15 * s);
        assertThat(b.delayWithin(10 * s, 5 * s, 50 * s)).isEqualTo(10 * s);
        assertThat(b.delayWithin(10 * s, 5 * s, 70 * s)).isZero();

        Backoff never =
                new Backoff(
                        new RetrySpec(
                                Duration.ofSeconds(1),
                                Duration.ofSeconds(30),
                                2.0,
                                0,
                                0,
                                Duration.ZERO),
                        new Random(1));
        assertThat(never.givesUp(0, Long.MAX_VALUE / 2)).isFalse();
        assertThat(never.delayWithin(30 * s, 0, 1000 * s)).isEqualTo(30 * s);
        assertThatThrownBy(
                        () ->
                                new Backoff(
                                        new RetrySpec(
                                                Duration.ofSeconds(1),
                                                Duration.ofSeconds(30),
                                                2.0,
                                                0,
                                                0,
                                                Duration.ofSeconds(-1)),
                                        new Random(1)))
                .hasMessageContaining("retry.give_up_after must be ≥ 0");
    }
}
