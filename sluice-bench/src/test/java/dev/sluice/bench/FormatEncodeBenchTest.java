package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.rigs.data.EventsData;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every arm of the format match-up encodes the events rows, and RowBinary is the direct path. */
class FormatEncodeBenchTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Native",
                "RowBinary",
                "RowBinaryWithNamesAndTypes",
                "TabSeparated",
                "CSV",
                "Values",
                "JSONEachRow",
                "JSONEachRow/bare64",
                "JSONCompactEachRow"
            })
    void everyArmEncodesTheRows(String label) {
        EventsData d = EventsData.generate(1000, 9);
        Block block = EventsData.newBlock();
        d.appendTo(block, 0, d.rows);
        WireOutput out = new WireOutput(1 << 16);
        FormatEncodeBench.encoder(label, block).write(block, out);
        assertThat(out.position()).isGreaterThan(d.rows * 150);
    }

    @Test
    void rowBinaryEqualsTheDirectPath() {
        EventsData d = EventsData.generate(2000, 4);
        Block block = EventsData.newBlock();
        d.appendTo(block, 0, d.rows);
        WireOutput direct = new WireOutput(1 << 16);
        WireOutput encoded = new WireOutput(1 << 16);
        d.writeRowBinary(direct, 0, d.rows);
        FormatEncodeBench.encoder("RowBinary", block).write(block, encoded);
        assertThat(encoded.toByteArray()).isEqualTo(direct.toByteArray());
    }

    @Test
    void tsvHasOneLinePerRow() {
        EventsData d = EventsData.generate(500, 2);
        Block block = EventsData.newBlock();
        d.appendTo(block, 0, d.rows);
        WireOutput out = new WireOutput(1 << 16);
        FormatEncodeBench.encoder("TabSeparated", block).write(block, out);
        String text = new String(out.toByteArray(), StandardCharsets.UTF_8);
        assertThat(text.split("\n", -1)).hasSize(d.rows + 1);
        assertThat(text.lines().findFirst().orElseThrow().split("\t")).hasSize(5);
    }
}
