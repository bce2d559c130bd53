package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryPacketTest {

    private static final ClientInfo INFO =
            ClientInfo.builder()
                    .initialAddress("127.0.0.1:40000")
                    .osUser("os")
                    .clientHostname("host")
                    .clientName("sluice")
                    .version(0, 1, 0)
                    .build();

    @Test
    void encodesChGoGoldenCreateDatabaseAt54450() {
        // proto/query_test.go queryCreateDatabase.
        QueryPacket query =
                new QueryPacket(
                        "23ad2c07-2f68-4005-9bac-da8f467bdd3b",
                        ClientInfoTest.chGoQueryInfo(),
                        List.of(),
                        false,
                        "CREATE DATABASE test;",
                        List.of());

        assertThat(Bytes.written(out -> query.write(out, 54450)))
                .isEqualTo(Golden.bytes("query_create_db"));
    }

    @Test
    void encodesChGoGoldenQueryWithTraceAt54460() {
        // proto/query_test.go TestQuery_EncodeAwareOTEL. ch-go's test sets the inter-server
        // secret to "secret"; this client always sends it empty, so the expected bytes are the
        // golden dump with that one String replaced by "".
        ClientInfo info =
                ClientInfo.builder()
                        .initialUser("neo")
                        .initialQueryId("68f607fb-59e4-4cc7-b55d-70e6dc4e7c93")
                        .initialAddress("1.1.1.1:1448")
                        .osUser("agent")
                        .clientHostname("nexus")
                        .clientName("Matrix")
                        .version(21, 14, 10688)
                        .clientRevision(52451)
                        .quotaKey("u-97dc")
                        .trace(new TraceContext(0x0102030400000000L, 0, 0x060708090a000000L, "", 1))
                        .build();
        QueryPacket query =
                new QueryPacket(
                        "a7e4c890-df21-4cea-b4a1-9b868e514366",
                        info,
                        List.of(),
                        true,
                        "CREATE DATABASE test;",
                        List.of());

        byte[] expected = replaceOnce(Golden.bytes("query_otel"), "\u0006secret", "\u0000");
        assertThat(Bytes.written(out -> query.write(out, 54460))).isEqualTo(expected);
    }

    @Test
    void at54412HasBinarySettingsNoSecretAndNoParameters() {
        QueryPacket query =
                new QueryPacket(
                        "id-1",
                        INFO,
                        List.of(
                                new QuerySetting("max_block_size", "8192"),
                                new QuerySetting("insert_deduplicate", "true"),
                                new QuerySetting("load_balancing", "random"),
                                new QuerySetting("totals_auto_threshold", "0.5")),
                        true,
                        "INSERT INTO t VALUES",
                        List.of());

        byte[] expected =
                Bytes.written(
                        out -> {
                            out.writeVarUInt(1).writeString("id-1");
                            INFO.write(out, 54412);
                            out.writeString("max_block_size").writeBytes(Bytes.hex("80 40"));
                            out.writeString("insert_deduplicate").writeVarUInt(1);
                            out.writeString("load_balancing").writeString("random");
                            out.writeString("totals_auto_threshold").writeString("0.5");
                            out.writeString(""); // end of settings; no secret below 54441
                            out.writeVarUInt(2) // stage Complete
                                    .writeVarUInt(1) // compression on
                                    .writeString("INSERT INTO t VALUES"); // no parameters
                        });
        assertThat(Bytes.written(out -> query.write(out, 54412))).isEqualTo(expected);
    }

    @Test
    void at54460HasStringSettingsSecretAndParameters() {
        QueryPacket query =
                new QueryPacket(
                        "",
                        INFO,
                        List.of(new QuerySetting("async_insert", "0")),
                        false,
                        "SELECT {n:UInt8}",
                        List.of(QueryParameter.of("n", "7")));

        byte[] expected =
                Bytes.written(
                        out -> {
                            out.writeVarUInt(1).writeString("");
                            INFO.write(out, 54460);
                            out.writeString("async_insert").writeVarUInt(1).writeString("0");
                            out.writeString("");
                            out.writeString(""); // inter-server secret
                            out.writeVarUInt(2).writeVarUInt(0).writeString("SELECT {n:UInt8}");
                            out.writeString("n").writeVarUInt(2).writeString("'7'");
                            out.writeString("");
                        });
        assertThat(Bytes.written(out -> query.write(out, 54460))).isEqualTo(expected);
    }

    @Test
    void aRefusedSettingLeavesTheBufferUntouched() {
        QueryPacket query =
                new QueryPacket(
                        "",
                        INFO,
                        List.of(
                                new QuerySetting("max_block_size", "1"),
                                new QuerySetting("async_insert", "1")),
                        false,
                        "SELECT 1",
                        List.of());
        WireOutput out = new WireOutput(64);
        out.writeByte(0x7f);

        assertThatThrownBy(() -> query.write(out, 54412))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("async_insert");
        assertThat(out.position()).isEqualTo(1);
    }

    @Test
    void refusesParametersBelow54459AndRevisionsAbove54460() {
        QueryPacket withParameter =
                new QueryPacket(
                        "",
                        INFO,
                        List.of(),
                        false,
                        "SELECT {n:UInt8}",
                        List.of(QueryParameter.of("n", "1")));
        QueryPacket plain = new QueryPacket("", INFO, List.of(), false, "SELECT 1", List.of());

        assertThatThrownBy(() -> withParameter.write(new WireOutput(16), 54458))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("54459");
        assertThatThrownBy(() -> plain.write(new WireOutput(16), 54492))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("54492");
    }

    @Test
    void quotesParameterValuesAsStringLiterals() {
        assertThat(QueryParameter.of("s", "it's a \\ test").quotedValue())
                .isEqualTo("'it\\'s a \\\\ test'");
    }

    private static byte[] replaceOnce(byte[] bytes, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.ISO_8859_1);
        int found = -1;
        for (int i = 0; i + f.length <= bytes.length; i++) {
            boolean match = true;
            for (int j = 0; j < f.length && match; j++) {
                match = bytes[i + j] == f[j];
            }
            if (match) {
                assertThat(found).as("'%s' occurs once", from).isEqualTo(-1);
                found = i;
            }
        }
        assertThat(found).as("'%s' occurs", from).isNotNegative();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, found);
        out.writeBytes(to.getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes, found + f.length, bytes.length - found - f.length);
        return out.toByteArray();
    }
}
