package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import org.junit.jupiter.api.Test;

class ProfileInfoTest {

    @Test
    void decodesChGoGoldenProfile() {
        // proto/profile_test.go: Rows 1234, Blocks 235123, Bytes 424, AppliedLimit true,
        // RowsBeforeLimit 2341, CalculatedRowsBeforeLimit false.
        WireInput in = Bytes.in(Golden.bytes("type/Profile"));

        assertThat(ServerPacketType.read(in)).isEqualTo(ServerPacketType.PROFILE_INFO);
        assertThat(ProfileInfo.read(in, 54460))
                .isEqualTo(new ProfileInfo(1234, 235123, 424, true, 2341, false));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void consumesTheRowsBeforeAggregationFieldsFrom54469() {
        WireInput in = Bytes.in(Bytes.hex("01 02 03 00 04 01 01 05"));

        assertThat(ProfileInfo.read(in, 54469)).isEqualTo(new ProfileInfo(1, 2, 3, false, 4, true));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void truncatedProfileIsAWireException() {
        assertThatThrownBy(() -> ProfileInfo.read(Bytes.in(Bytes.hex("01 02 03 00 04")), 54412))
                .isInstanceOf(WireException.class);
    }
}
