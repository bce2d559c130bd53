package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import org.junit.jupiter.api.Test;

class ServerHelloTest {

    @Test
    void decodesChGoGoldenHello() {
        // proto/server_hello_test.go: "ClickHouse server" 21.11.3, revision 54450.
        WireInput in = Bytes.in(Golden.bytes("type/ServerHello"));

        assertThat(ServerPacketType.read(in)).isEqualTo(ServerPacketType.HELLO);
        assertThat(ServerHello.read(in, ProtocolRevision.CLIENT_REVISION))
                .isEqualTo(
                        new ServerHello(
                                "ClickHouse server", 21, 11, 54450, "Europe/Moscow", "alpha", 3));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void decodesTheHelloOf18_16() {
        // What the 18.16.1 test server sends to a client announcing 54460.
        byte[] body =
                Bytes.written(
                        out ->
                                out.writeString("ClickHouse")
                                        .writeVarUInt(18)
                                        .writeVarUInt(16)
                                        .writeVarUInt(54412)
                                        .writeString("Etc/UTC")
                                        .writeString("vm")
                                        .writeVarUInt(1));
        WireInput in = Bytes.in(body);

        ServerHello hello = ServerHello.read(in, 54460);

        assertThat(hello)
                .isEqualTo(new ServerHello("ClickHouse", 18, 16, 54412, "Etc/UTC", "vm", 1));
        assertThat(in.atEnd()).isTrue();
        assertThat(ProtocolRevision.negotiate(54460, hello.revision())).isEqualTo(54412);
    }

    @Test
    void gatesOnTheServersRevisionWhenItIsOlder() {
        // A 54370 server knows neither display name (54372) nor patch (54401).
        byte[] body =
                Bytes.written(
                        out ->
                                out.writeString("ClickHouse")
                                        .writeVarUInt(1)
                                        .writeVarUInt(1)
                                        .writeVarUInt(54370)
                                        .writeString("UTC"));
        WireInput in = Bytes.in(body);

        assertThat(ServerHello.read(in, 54460))
                .isEqualTo(new ServerHello("ClickHouse", 1, 1, 54370, "UTC", "", 54370));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void gatesOnTheAnnouncedRevisionWhenItIsOlder() {
        // The server writes only what the client's announced revision has: here the time zone.
        byte[] body =
                Bytes.written(
                        out ->
                                out.writeString("ClickHouse")
                                        .writeVarUInt(24)
                                        .writeVarUInt(8)
                                        .writeVarUInt(54460)
                                        .writeString("UTC"));
        WireInput in = Bytes.in(body);

        assertThat(ServerHello.read(in, 54100))
                .isEqualTo(new ServerHello("ClickHouse", 24, 8, 54460, "UTC", "", 54460));
        assertThat(in.atEnd()).isTrue();
    }

    @Test
    void truncatedHelloIsAWireException() {
        byte[] golden = Golden.bytes("type/ServerHello");
        WireInput in = Bytes.in(Bytes.dropLast(golden, 1));
        ServerPacketType.read(in);

        assertThatThrownBy(() -> ServerHello.read(in, 54460)).isInstanceOf(WireException.class);
    }

    @Test
    void refusesAnAnnouncedRevisionAboveTheClients() {
        assertThatThrownBy(() -> ServerHello.read(Bytes.in(new byte[0]), 54461))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
