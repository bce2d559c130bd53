package dev.sluice.rigs.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rigs.TestRecords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Kafka rig's arms without a broker: run order, the half rate, and refused axes. */
class KafkaRigTest {
    private static Map<String, List<String>> axes(String modes, String rate) {
        Map<String, List<String>> a = new LinkedHashMap<>();
        a.put("mode", List.of(modes.split(",")));
        a.put("threads", List.of("1", "2"));
        a.put("partitions", List.of("4"));
        a.put("records", List.of("1000"));
        a.put("rate", List.of(rate));
        a.put("linger", List.of("1s"));
        return a;
    }

    @Test
    void pacedArmsRunLastInEveryRepetitionSoThatHalfHasItsBacklogFigure() {
        List<Map<String, Object>> arms = new ArrayList<>();
        for (String mode : List.of("paced", "backlog", "file")) {
            for (int t = 1; t <= 2; t++) {
                arms.add(TestRecords.arm("mode", mode, "threads", t));
            }
        }
        for (int rep = 1; rep <= 2; rep++) {
            List<Map<String, Object>> order = KafkaRig.inRunOrder(arms, rep);
            assertThat(order).hasSize(6).containsExactlyInAnyOrderElementsOf(arms);
            assertThat(order.subList(4, 6)).allMatch(a -> a.get("mode").equals("paced"));
            assertThat(order.subList(0, 4)).noneMatch(a -> a.get("mode").equals("paced"));
        }
        // even repetitions reverse the others, to spread drift over the arms
        assertThat(KafkaRig.inRunOrder(arms, 2).get(0))
                .isEqualTo(KafkaRig.inRunOrder(arms, 1).get(3));
    }

    @Test
    void halfIsHalfTheMedianOfTheBacklogRatesSoFar() {
        assertThat(KafkaRig.half(List.of(100_000.0))).isEqualTo(50_000.0);
        assertThat(KafkaRig.half(List.of(300_000.0, 100_000.0, 200_000.0))).isEqualTo(100_000.0);
        assertThat(KafkaRig.half(List.of(100_000.0, 200_000.0))).isEqualTo(75_000.0);
        assertThat(KafkaRig.half(List.of())).isZero();
        assertThat(KafkaRig.half(null)).isZero();
    }

    @Test
    void axesAreCheckedBeforeAnythingRuns() {
        KafkaRig rig = new KafkaRig();
        rig.check(axes("backlog,file,paced", "half"));
        rig.check(axes("paced", "5000"));
        assertThatThrownBy(() -> rig.check(axes("paced", "half")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--rate half")
                .hasMessageContaining("--mode backlog");
        assertThatThrownBy(() -> rig.check(axes("backlog,stream", "half")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stream");
        assertThatThrownBy(() -> rig.check(axes("paced", "fast")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fast");
    }
}
