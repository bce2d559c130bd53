package dev.sluice.rigs.saturation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The saturation rig's arms: the grid, the one-at-a-time sweeps, and bad axis values. */
class SaturationArmsTest {

    private static Map<String, List<String>> axes(String... overrides) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (var a : new SaturationRig().axes()) {
            m.put(a.name(), a.quick());
        }
        for (int i = 0; i < overrides.length; i += 2) {
            m.put(overrides[i], List.of(overrides[i + 1].split(",")));
        }
        return m;
    }

    @Test
    void theGridCrossesThreadsEnginesAndFormatsAndTheSweepsVaryOneAxisAtATime() {
        List<SaturationRig.Arm> arms =
                SaturationRig.arms(
                        axes(
                                "threads",
                                "1,2",
                                "engine",
                                "Null,MergeTree",
                                "format",
                                "Native,RowBinary",
                                "transport",
                                "native,http",
                                "compression",
                                "lz4,zstd",
                                "shards",
                                "1,2",
                                "max-rows",
                                "65536,262144",
                                "async-insert",
                                "off",
                                "budget",
                                "auto"));
        // grid: 2 threads × 2 engines × (Native/native, Native/http, RowBinary/http) = 12,
        // + RowBinary/native once at the base = 13; sweeps: zstd, 2 shards, 262144 on MergeTree =
        // 16
        assertThat(arms).hasSize(16);
        assertThat(arms)
                .filteredOn(a -> a.format().equals("RowBinary") && a.transport().equals("native"))
                .hasSize(1);
        assertThat(arms)
                .filteredOn(a -> a.compression().equals("zstd"))
                .singleElement()
                .satisfies(a -> assertThat(a.threads()).isEqualTo(1))
                .satisfies(a -> assertThat(a.engine()).isEqualTo("Null"));
        assertThat(arms)
                .filteredOn(a -> a.maxRows() == 262144)
                .singleElement()
                .satisfies(a -> assertThat(a.engine()).isEqualTo("MergeTree"));
        assertThat(arms).doesNotHaveDuplicates();
        assertThat(SaturationRig.base(axes()).values())
                .containsEntry("threads", 1)
                .containsEntry("format", "Native")
                .containsEntry("budget", "auto");
    }

    @Test
    void theFullRunsArms() {
        Map<String, List<String>> defaults = new LinkedHashMap<>();
        for (var a : new SaturationRig().axes()) {
            defaults.put(a.name(), a.defaults());
        }
        List<SaturationRig.Arm> arms = SaturationRig.arms(defaults);
        // grid 4 threads × 2 engines × 3 format/transport pairs + RowBinary/native once = 25;
        // compression none, zstd; shards 2; max_rows 262144, 2097152 on MergeTree; async on;
        // presort on and auto on MergeTree at the base arm (off is the grid's MergeTree arm) = 33
        assertThat(arms).hasSize(33);
        assertThat(arms.stream().filter(a -> SaturationRig.unsupportedPairing(a) != null))
                .hasSize(1);
        // the ceiling can be bracketed: the base arm's series runs up to 4 threads
        assertThat(
                        arms.stream()
                                .filter(
                                        a ->
                                                a.engine().equals("Null")
                                                        && a.format().equals("Native")
                                                        && a.transport().equals("native")
                                                        && a.compression().equals("lz4")
                                                        && a.maxRows() == 1_048_576
                                                        && a.shards() == 1
                                                        && a.asyncInsert().equals("off"))
                                .map(SaturationRig.Arm::threads))
                .containsExactly(1, 2, 3, 4);
    }

    @Test
    void thePresortSweepRunsOnMergeTreeAtTheBaseArmAndOnlyWhenAskedFor() {
        List<SaturationRig.Arm> quick = SaturationRig.arms(axes());
        assertThat(quick).allSatisfy(a -> assertThat(a.presort()).isEqualTo("off"));
        assertThat(quick).noneMatch(a -> a.engine().equals("MergeTree")); // quick is Null only

        List<SaturationRig.Arm> arms =
                SaturationRig.arms(
                        axes("threads", "2,1", "async-insert", "off", "presort", "off,on,auto"));
        // grid: 2 threads × Null × (Native/native, Native/http, RowBinary/http) = 6, + RowBinary/
        // native at the base = 7; presort on MergeTree at the base arm: off, on, auto = 10
        assertThat(arms).hasSize(10).doesNotHaveDuplicates();
        assertThat(arms)
                .filteredOn(a -> a.engine().equals("MergeTree"))
                .extracting(SaturationRig.Arm::presort)
                .containsExactly("off", "on", "auto");
        assertThat(arms)
                .filteredOn(a -> a.engine().equals("MergeTree"))
                .allSatisfy(a -> assertThat(a.threads()).isEqualTo(2))
                .allSatisfy(a -> assertThat(a.format()).isEqualTo("Native"))
                .allSatisfy(a -> assertThat(a.values()).containsKey("presort"));
        assertThat(arms)
                .filteredOn(a -> a.engine().equals("Null"))
                .allSatisfy(a -> assertThat(a.presort()).isEqualTo("off"));
    }

    @Test
    void rowBinaryOverTheNativeProtocolCannotRun() {
        SaturationRig.Arm a =
                new SaturationRig.Arm(
                        1, 1, "Null", "RowBinary", "native", "lz4", 1000, "off", "auto", "off");
        assertThat(SaturationRig.unsupportedPairing(a))
                .contains("native protocol carries Native blocks only");
    }

    @Test
    void badAxisValuesAreNamed() {
        assertThatThrownBy(() -> SaturationRig.arms(axes("threads", "0")))
                .hasMessage("--threads: '0' is not a positive whole number");
        assertThatThrownBy(() -> SaturationRig.arms(axes("engine", "Log")))
                .hasMessage("--engine: 'Log' is not one of Null, MergeTree");
        assertThatThrownBy(() -> SaturationRig.arms(axes("compression", "brotli")))
                .hasMessage("--compression: 'brotli' is not one of lz4, zstd, zstd:LEVEL, none");
        assertThatThrownBy(() -> SaturationRig.arms(axes("budget", "lots")))
                .hasMessage("--budget: 'lots' is not a positive size (e.g. 64MiB)");
        assertThatThrownBy(() -> SaturationRig.arms(axes("presort", "fast")))
                .hasMessageStartingWith("--presort: 'fast' is not one of off, on, auto");
    }

    @Test
    void theBatchCapLeavesRoomForTheRowsSoRowsSealBatches() {
        SaturationRig.Arm a =
                new SaturationRig.Arm(
                        1, 1, "Null", "Native", "native", "lz4", 1_048_576, "off", "auto", "off");
        assertThat(SaturationRig.maxBytes(a)).isEqualTo(1_048_576L * 320);
    }
}
