package dev.sluice.pipeline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class InterpolationTest {
    private final Function<String, String> env =
            Map.of("HOST", "ch-1", "EMPTY", "", "PORT", "9000")::get;

    @Test
    void variablesDefaultsAndEscapes() {
        assertThat(Interpolation.apply("plain", env)).isEqualTo("plain");
        assertThat(Interpolation.apply("clickhouse://${HOST}:${PORT}/db", env))
                .isEqualTo("clickhouse://ch-1:9000/db");
        assertThat(Interpolation.apply("${MISSING:-fallback}", env)).isEqualTo("fallback");
        assertThat(Interpolation.apply("${EMPTY:-fallback}", env)).isEqualTo("fallback");
        assertThat(Interpolation.apply("${EMPTY}", env)).isEmpty();
        assertThat(Interpolation.apply("${HOST:-x}", env)).isEqualTo("ch-1");
        assertThat(Interpolation.apply("${MISSING:-}", env)).isEmpty();
        assertThat(Interpolation.apply("cost: $5, $$HOME, ${MISSING:-a:b-c}", env))
                .isEqualTo("cost: $5, $HOME, a:b-c");
        assertThat(Interpolation.apply("$", env)).isEqualTo("$");
    }

    @Test
    void substitutedTextIsNotInterpretedAgain() {
        assertThat(Interpolation.apply("${V}", Map.of("V", "${HOST}")::get)).isEqualTo("${HOST}");
    }

    @Test
    void mistakes() {
        assertThatThrownBy(() -> Interpolation.apply("x ${NOPE} y", env))
                .hasMessageContaining("environment variable NOPE is not set")
                .hasMessageContaining("${NOPE:-value}");
        assertThatThrownBy(() -> Interpolation.apply("${HOST", env))
                .hasMessageContaining("closing");
        assertThatThrownBy(() -> Interpolation.apply("${1X}", env)).hasMessageContaining("${NAME}");
        assertThatThrownBy(() -> Interpolation.apply("${A:-${B}}", env))
                .hasMessageContaining("another variable");
    }
}
