package dev.sluice.pipeline.decode.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GeneratorDecoderTest {
    private static final String EVENTS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String, extra UInt8 DEFAULT";

    private static Rows rows(long seed, int arena, long first, int count, String columns) {
        var table = DecodeFixture.table(columns);
        var decode = DecodeFixture.spec(Format.GENERATOR);
        TargetColumns target = DecoderFactory.targetColumns(decode, List.of(), table);
        GeneratorSource g = new GeneratorSource(0, 0, seed, arena);
        Decoder d = new GeneratorDecoder(g, slots(target));
        PolledRecords b = new PolledRecords();
        for (int i = 0; i < count; i++) {
            b.add(0, 0, first + i, 0);
        }
        return new Rows(target).decode(d, b);
    }

    private static List<dev.sluice.pipeline.decode.ColumnSlot> slots(TargetColumns target) {
        List<dev.sluice.pipeline.decode.ColumnSlot> out = new java.util.ArrayList<>();
        for (int i = 0; i < target.size(); i++) {
            var c = target.columns().get(i);
            out.add(
                    new dev.sluice.pipeline.decode.ColumnSlot(
                            i,
                            c.name(),
                            c.typeName(),
                            dev.sluice.pipeline.decode.convert.Converters.forType(c.type())));
        }
        return out;
    }

    @Test
    void rowsDependOnlyOnSeedAndPosition() {
        Rows all = rows(42, 100, 0, 3000, EVENTS);
        Rows replay = rows(42, 100, 1000, 1000, EVENTS);
        assertThat(all.errors).isEmpty();
        assertThat(all.block.columnCount()).as("extra is left to its DEFAULT").isEqualTo(5);
        for (int i = 0; i < 1000; i++) {
            for (String c : List.of("ts", "tenant", "kind", "id", "payload")) {
                assertThat(replay.value(c, i)).isEqualTo(all.value(c, 1000 + i));
            }
        }
        Rows other = rows(43, 100, 0, 100, EVENTS);
        int differing = 0;
        for (int i = 0; i < 100; i++) {
            differing += other.value("payload", i).equals(all.value("payload", i)) ? 0 : 1;
        }
        assertThat(differing).as("another seed, other rows").isGreaterThan(50);
    }

    @Test
    void valuesHaveTheEventsShape() {
        Rows r = rows(7, 50, 0, 5000, EVENTS);
        Set<Object> kinds = new HashSet<>();
        Set<Object> payloads = new HashSet<>();
        for (int i = 0; i < 5000; i++) {
            assertThat((Long) r.value("tenant", i)).isBetween(0L, 999L);
            assertThat(r.value("id", i)).isEqualTo((long) i);
            assertThat(r.value("ts", i)).isEqualTo(GeneratorDecoder.START_SECONDS + i / 1000);
            String p = (String) r.value("payload", i);
            assertThat(p.length()).isBetween(180, 240);
            kinds.add(r.value("kind", i));
            payloads.add(p);
        }
        assertThat(kinds).hasSize(20);
        assertThat(payloads).hasSize(50);
    }

    @Test
    void otherCompatibleTypesWork() {
        Rows r =
                rows(
                        1,
                        10,
                        5,
                        2,
                        "ts DateTime64(3), tenant Int64, kind LowCardinality(String), id Int64");
        assertThat(r.errors).isEmpty();
        assertThat(r.value("ts", 0)).isEqualTo(GeneratorDecoder.START_SECONDS * 1000);
        assertThat(r.value("id", 1)).isEqualTo(6L);
    }

    @Test
    void theFactoryNeedsTheGeneratorSource() {
        var table = DecodeFixture.table(EVENTS);
        var decode = DecodeFixture.spec(Format.GENERATOR);
        TargetColumns target = DecoderFactory.targetColumns(decode, List.of(), table);
        assertThatThrownBy(() -> DecoderFactory.create(decode, target))
                .hasMessageContaining("generator source");
        assertThatThrownBy(
                        () -> new GeneratorDecoder(new GeneratorSource(0, 0, 1, 0), slots(target)))
                .hasMessageContaining("arena");
        PipelineSpec.SourceSpec source = new GeneratorSource(10, 0, 1, 8);
        assertThat(source).isInstanceOf(GeneratorSource.class);
    }
}
