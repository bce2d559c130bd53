package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import org.junit.jupiter.api.Test;

class PacketTypeTest {

    @Test
    void codesFollowProtocolH() {
        assertThat(ClientPacketType.QUERY.code()).isEqualTo(1);
        assertThat(ClientPacketType.MERGE_TREE_ALL_RANGES_ANNOUNCEMENT_RESPONSE.code())
                .isEqualTo(14);
        assertThat(ServerPacketType.TABLE_COLUMNS.code()).isEqualTo(11);
        assertThat(ServerPacketType.PREVIEW_DATA.code()).isEqualTo(19);
        for (ServerPacketType t : ServerPacketType.values()) {
            assertThat(ServerPacketType.fromCode(t.code())).isSameAs(t);
        }
        for (ClientPacketType t : ClientPacketType.values()) {
            assertThat(t.code()).isEqualTo(t.ordinal());
        }
    }

    @Test
    void anUnknownServerCodeIsNamed() {
        assertThatThrownBy(() -> ServerPacketType.fromCode(42))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("unknown server packet code 42");
        assertThatThrownBy(() -> ServerPacketType.fromCode(-1))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("code 18446744073709551615");
    }

    @Test
    void theClientWritesItsCodeAsAVarUInt() {
        assertThat(Bytes.written(ClientPacketType.PING::write)).isEqualTo(Bytes.hex("04"));
    }

    @Test
    void timezoneUpdateIsOneString() {
        assertThat(
                        TimezoneUpdate.read(
                                Bytes.in(Bytes.written(out -> out.writeString("Asia/Tokyo"))),
                                54464))
                .isEqualTo(new TimezoneUpdate("Asia/Tokyo"));
    }

    @Test
    void negotiationTakesTheLowerRevision() {
        assertThat(ProtocolRevision.CLIENT_REVISION).isEqualTo(54460);
        assertThat(ProtocolRevision.negotiate(54460, 54412)).isEqualTo(54412);
        assertThat(ProtocolRevision.negotiate(54460, 54492)).isEqualTo(54460);
    }
}
