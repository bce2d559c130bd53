package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void decodesChGoGoldenProgressAt54460() {
        // proto/progress_test.go: Rows 100, Bytes 608120, TotalRows 1000, WroteRows 441,
        // WroteBytes 91023 (elapsed 0).
        WireInput in = Bytes.in(Golden.bytes("progress"));

        assertThat(Progress.read(in, 54460))
                .isEqualTo(new Progress(100, 608120, 1000, 0, 441, 91023, 0));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void at54412HasOnlyTheReadCounters() {
        WireInput in = Bytes.in(Bytes.hex("05 0a 0f"));

        assertThat(Progress.read(in, 54412)).isEqualTo(new Progress(5, 10, 15, 0, 0, 0, 0));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void eachGateAddsItsFieldInWireOrder() {
        // read_rows, read_bytes, total_rows, [total_bytes 54463], [written 54420], [elapsed 54460]
        assertThat(Progress.read(Bytes.in(Bytes.hex("01 02 03 04 05")), 54420))
                .isEqualTo(new Progress(1, 2, 3, 0, 4, 5, 0));
        assertThat(Progress.read(Bytes.in(Bytes.hex("01 02 03 04 05 06")), 54460))
                .isEqualTo(new Progress(1, 2, 3, 0, 4, 5, 6));
        assertThat(Progress.read(Bytes.in(Bytes.hex("01 02 03 07 04 05 06")), 54463))
                .isEqualTo(new Progress(1, 2, 3, 7, 4, 5, 6));
    }

    @Test
    void plusAccumulatesIncrements() {
        Progress total =
                Progress.ZERO
                        .plus(new Progress(1, 2, 3, 4, 5, 6, 7))
                        .plus(new Progress(10, 20, 30, 40, 50, 60, 70));

        assertThat(total).isEqualTo(new Progress(11, 22, 33, 44, 55, 66, 77));
    }

    @Test
    void truncatedProgressIsAWireException() {
        byte[] golden = Golden.bytes("progress");

        assertThatThrownBy(() -> Progress.read(Bytes.in(Bytes.dropLast(golden, 1)), 54460))
                .isInstanceOf(WireException.class);
        // A VarUInt cut after a continuation byte.
        assertThatThrownBy(() -> Progress.read(Bytes.in(Bytes.hex("01 02 80")), 54412))
                .isInstanceOf(WireException.class);
    }
}
