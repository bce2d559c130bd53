package dev.sluice.pipeline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void sizes() {
        assertThat(Units.parseSize("1048576")).isEqualTo(1 << 20);
        assertThat(Units.parseSize("64MiB")).isEqualTo(64L << 20);
        assertThat(Units.parseSize("64 mib")).isEqualTo(64L << 20);
        assertThat(Units.parseSize("512k")).isEqualTo(512L << 10);
        assertThat(Units.parseSize("512K")).isEqualTo(512L << 10);
        assertThat(Units.parseSize("2g")).isEqualTo(2L << 30);
        assertThat(Units.parseSize("1GB")).isEqualTo(1_000_000_000L);
        assertThat(Units.parseSize("10kb")).isEqualTo(10_000L);
        assertThat(Units.parseSize("1.5GiB")).isEqualTo(3L << 29);
        assertThat(Units.parseSize("1TiB")).isEqualTo(1L << 40);
        assertThat(Units.parseSize("100B")).isEqualTo(100);
        assertThat(Units.parseSize("1_000")).isEqualTo(1000);
    }

    @Test
    void badSizes() {
        assertThatThrownBy(() -> Units.parseSize("64XB"))
                .hasMessageContaining("unknown size unit 'XB'");
        assertThatThrownBy(() -> Units.parseSize("-1")).hasMessageContaining("expected a size");
        assertThatThrownBy(() -> Units.parseSize("MiB")).hasMessageContaining("expected a size");
        assertThatThrownBy(() -> Units.parseSize("")).hasMessageContaining("expected a size");
        assertThatThrownBy(() -> Units.parseSize("99999999TiB")).hasMessageContaining("too large");
    }

    @Test
    void durations() {
        assertThat(Units.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Units.parseDuration("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Units.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Units.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Units.parseDuration("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Units.parseDuration("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Units.parseDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Units.parseDuration("250us")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Units.parseDuration("7ns")).isEqualTo(Duration.ofNanos(7));
        assertThat(Units.parseDuration("0")).isEqualTo(Duration.ZERO);
        assertThat(Units.parseDuration(" 10 s ")).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void limitsAreExactForWholeNumbersAndFractions() {
        assertThat(Units.parseSize("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> Units.parseSize("9223372036854775808"))
                .hasMessageContaining("too large");
        assertThatThrownBy(() -> Units.parseSize("123456789012345678901234567890"))
                .hasMessageContaining("too large");
        assertThat(Units.parseSize("8388607TiB")).isEqualTo(8388607L << 40);
        assertThatThrownBy(() -> Units.parseSize("8388608TiB")).hasMessageContaining("too large");
        assertThat(Units.parseSize("0.5B")).isZero(); // fractions of a byte are cut, not rounded
        assertThat(Units.parseSize("1.9999B")).isEqualTo(1);
        assertThat(Units.parseSize("1.5k")).isEqualTo(1536);
        assertThat(Units.parseDuration("106751d")).isEqualTo(Duration.ofDays(106751));
        assertThatThrownBy(() -> Units.parseDuration("106752d")).hasMessageContaining("too long");
        assertThatThrownBy(() -> Units.parseDuration("106751d106751d"))
                .hasMessageContaining("too long");
        assertThatThrownBy(() -> Units.parseDuration("99999999999999999999ns"))
                .hasMessageContaining("too long");
        // the form is checked first: a malformed duration says so even when a part is too long
        assertThatThrownBy(() -> Units.parseDuration("106752d 5"))
                .hasMessageContaining("expected a duration");
        assertThat(Units.parseDuration("0.0000000015s")).isEqualTo(Duration.ofNanos(1));
    }

    @Test
    void badDurations() {
        for (String bad : new String[] {"10", "", "s", "5 parsecs", "1s2", "-1s", "1 h 5"}) {
            assertThatThrownBy(() -> Units.parseDuration(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("duration");
        }
    }
}
