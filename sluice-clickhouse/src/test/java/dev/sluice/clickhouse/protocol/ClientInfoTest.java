package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ClientInfoTest {

    /** proto/query_test.go queryCreateDatabase.Info, encoded at queryProtoVersion = 54450. */
    static ClientInfo chGoQueryInfo() {
        return ClientInfo.builder()
                .initialQueryId("23ad2c07-2f68-4005-9bac-da8f467bdd3b")
                .initialAddress("0.0.0.0:0")
                .osUser("ernado")
                .clientHostname("nexus")
                .clientName("ClickHouse ")
                .version(21, 11, 4)
                .clientRevision(54450)
                .build();
    }

    @Test
    void encodesChGoGoldenClientInfoAt54450() {
        assertThat(Bytes.written(out -> chGoQueryInfo().write(out, 54450)))
                .isEqualTo(Golden.bytes("client_info"));
    }

    @Test
    void encodesChGoGoldenTraceContextAt54460() {
        // proto/client_info_test.go TestClientInfo_OpenTelemetry: TraceID 01..10, SpanID 01..08.
        ClientInfo info =
                ClientInfo.builder()
                        .initialQueryId("40c268ad-de50-434d-a391-800da9aa70c3")
                        .initialAddress("0.0.0.0:0")
                        .osUser("user")
                        .clientHostname("hostname")
                        .clientName("Name")
                        .version(21, 11, 4)
                        .clientRevision(54429)
                        .trace(
                                new TraceContext(
                                        0x0102030405060708L,
                                        0x090a0b0c0d0e0f10L,
                                        0x0102030405060708L,
                                        "",
                                        0))
                        .build();

        assertThat(Bytes.written(out -> info.write(out, 54460)))
                .isEqualTo(Golden.bytes("client_info_otel"));
    }

    @Test
    void at54412SendsOnlyTheFieldsThatServerKnows() {
        ClientInfo info =
                ClientInfo.builder()
                        .initialQueryId("q1")
                        .initialAddress("127.0.0.1:53122")
                        .initialQueryStartTimeMicros(123456789)
                        .osUser("os")
                        .clientHostname("host")
                        .clientName("sluice")
                        .version(0, 1, 7)
                        .quotaKey("qk")
                        .trace(new TraceContext(1, 2, 3, "st", 1))
                        .build();

        // No start time (54449), distributed depth (54448), trace (54442), replicas (54453).
        byte[] expected =
                Bytes.written(
                        out ->
                                out.writeByte(1) // initial query
                                        .writeString("")
                                        .writeString("q1")
                                        .writeString("127.0.0.1:53122")
                                        .writeByte(1) // TCP
                                        .writeString("os")
                                        .writeString("host")
                                        .writeString("sluice")
                                        .writeVarUInt(0)
                                        .writeVarUInt(1)
                                        .writeVarUInt(54460) // the revision the client announced
                                        .writeString("qk") // quota key, 54060
                                        .writeVarUInt(7)); // patch, 54401

        assertThat(Bytes.written(out -> info.write(out, 54412))).isEqualTo(expected);
    }

    @Test
    void startTimeIsAFixedEightByteInt64From54449() {
        ClientInfo info =
                ClientInfo.builder()
                        .initialAddress("[::1]:40000")
                        .initialQueryStartTimeMicros(0x0102030405060708L)
                        .build();

        byte[] at54448 = Bytes.written(out -> info.write(out, 54448));
        byte[] at54449 = Bytes.written(out -> info.write(out, 54449));

        assertThat(at54449).hasSize(at54448.length + 8);
        byte[] prefix = Bytes.written(out -> out.writeByte(1).writeString("").writeString(""));
        int timeAt = prefix.length + 1 + "[::1]:40000".length();
        assertThat(Arrays.copyOfRange(at54449, timeAt, timeAt + 8))
                .isEqualTo(Bytes.hex("08 07 06 05 04 03 02 01"));
    }

    @Test
    void refusesRevisionsWithoutClientInfoAndAboveTheClients() {
        ClientInfo info = ClientInfo.builder().initialAddress("0.0.0.0:0").build();

        assertThatThrownBy(() -> info.write(new WireOutput(16), 54031))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("54032");
        assertThatThrownBy(() -> info.write(new WireOutput(16), 54461))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("54461");
    }

    @Test
    void refusesAHostNameAsInitialAddress() {
        assertThatThrownBy(() -> ClientInfo.builder().initialAddress("localhost:9000").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("localhost:9000");
        assertThatThrownBy(() -> ClientInfo.builder().build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("initialAddress");
    }

    @Test
    void refusesAnAllZeroTraceId() {
        assertThatThrownBy(() -> new TraceContext(0, 0, 1, "", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
