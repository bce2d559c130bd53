package dev.sluice.pipeline.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Damaged records — cut, spliced with random bytes, bytes changed — are either decoded or rejected
 * with a RecordException: never another exception, never a half-written row. The good record after
 * each damaged one always decodes (the JSON parser recovers).
 */
class MalformedInputPropertyTest {
    private static final String COLUMNS =
            "i Int32, u UInt8, f Float64, d Decimal(9, 2), s String, dt DateTime, day Date,"
                    + " id UUID, e Enum8('a' = 1, 'b' = 2), n Nullable(Int64), a Array(Nullable(String)),"
                    + " t Tuple(UInt8, String), m Map(String, UInt8), lc LowCardinality(String)";

    private static final Map<Format, String> GOOD =
            Map.of(
                    Format.TSV,
                    "-5\t7\t1.5\t3.25\tx\\ty\t2024-01-01 00:00:00\t2024-01-01\t"
                            + "550e8400-e29b-41d4-a716-446655440000\tb\t\\N\t['a',NULL]\t(1,'z')\t{'k':1}\tv",
                    Format.CSV,
                    "-5,7,1.5,3.25,\"x,y\",2024-01-01 00:00:00,2024-01-01,"
                            + "550e8400-e29b-41d4-a716-446655440000,b,\\N,\"['a',NULL]\",\"(1,'z')\","
                            + "\"{'k':1}\",v",
                    Format.JSON,
                    "{\"i\":-5,\"u\":7,\"f\":1.5,\"d\":3.25,\"s\":\"x\\ty\",\"dt\":\"2024-01-01 00:00:00\","
                            + "\"day\":\"2024-01-01\",\"id\":\"550e8400-e29b-41d4-a716-446655440000\","
                            + "\"e\":\"b\",\"n\":null,\"a\":[\"a\",null],\"t\":[1,\"z\"],\"m\":{\"k\":1},"
                            + "\"lc\":\"v\"}");

    @Provide
    Arbitrary<byte[]> damage() {
        return Combinators.combine(
                        // the text formats; Avro has its own (AvroDecoderTest)
                        Arbitraries.of(Format.values()).filter(GOOD::containsKey),
                        Arbitraries.integers().between(0, 400),
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(6))
                .as(
                        (format, at, kind, noise) -> {
                            byte[] good = GOOD.get(format).getBytes(StandardCharsets.UTF_8);
                            int p = Math.min(at, good.length);
                            byte[] out =
                                    switch (kind) {
                                        case 0 -> Arrays.copyOf(good, p); // cut
                                        case 1 -> splice(good, p, noise, 0); // insert
                                        case 2 -> splice(good, p, noise, noise.length); // overwrite
                                        default ->
                                                splice(
                                                        good,
                                                        p,
                                                        new byte[0],
                                                        1 + noise.length); // delete
                                    };
                            byte[] tagged = new byte[out.length + 1];
                            tagged[0] = (byte) format.ordinal();
                            System.arraycopy(out, 0, tagged, 1, out.length);
                            return tagged;
                        });
    }

    private static byte[] splice(byte[] good, int at, byte[] insert, int remove) {
        int cut = Math.min(good.length, at + remove);
        byte[] out = new byte[at + insert.length + good.length - cut];
        System.arraycopy(good, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(good, cut, out, at + insert.length, good.length - cut);
        return out;
    }

    @Property(tries = 3000)
    void damagedRecordsAreDecodedOrRejectedCleanly(@ForAll("damage") byte[] tagged) {
        Format format = Format.values()[tagged[0]];
        byte[] damaged = Arrays.copyOfRange(tagged, 1, tagged.length);
        DecodeSpec spec = DecodeFixture.spec(format);
        TargetColumns target =
                DecoderFactory.targetColumns(spec, List.of(), DecodeFixture.table(COLUMNS));
        Decoder d = DecoderFactory.create(spec, target);
        byte[] good = GOOD.get(format).getBytes(StandardCharsets.UTF_8);
        Rows r = new Rows(target).decode(d, DecodeFixture.batch(damaged, good));
        assertThat(r.block.rows()).isEqualTo(2 - r.errors.size());
        assertThat(r.errors.size()).isLessThanOrEqualTo(1);
        assertThat(r.value("lc", r.block.rows() - 1)).isEqualTo("v");
        for (String e : r.errors) {
            assertThat(e).isNotBlank();
        }
    }
}
