package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClientHelloTest {

    @Test
    void encodesChGoGoldenHello() {
        // proto/client_hello_test.go: Name "ch", 1.1, ProtocolVersion 41000, "github", "neo", "".
        ClientHello hello = new ClientHello("ch", 1, 1, 41000, "github", "neo", "");

        assertThat(Bytes.written(hello::write)).isEqualTo(Golden.bytes("client_hello"));
    }

    @Test
    void layoutIsCodeThenFieldsInOrder() {
        ClientHello hello =
                new ClientHello("sluice", 0, 1, ProtocolRevision.CLIENT_REVISION, "db", "u", "pw");

        assertThat(Bytes.written(hello::write))
                .isEqualTo(
                        Bytes.written(
                                out ->
                                        out.writeVarUInt(0)
                                                .writeString("sluice")
                                                .writeVarUInt(0)
                                                .writeVarUInt(1)
                                                .writeVarUInt(54460)
                                                .writeString("db")
                                                .writeString("u")
                                                .writeString("pw")));
    }

    @Test
    void toStringNeverShowsThePassword() {
        ClientHello hello = new ClientHello("sluice", 0, 1, 54460, "", "sluice", "s3cret-pw");

        assertThat(hello.toString())
                .doesNotContain("s3cret-pw")
                .contains("user=sluice")
                .contains("password=<hidden>");
    }

    @Test
    void refusesControlCharactersWithoutEchoingThePassword() {
        assertThatThrownBy(() -> new ClientHello("x", 0, 1, 54460, "", "u", "se\ncret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("password")
                .hasMessageNotContaining("se\ncret")
                .hasMessageNotContaining("cret");
    }

    @Test
    void refusesAnEmptyUser() {
        assertThatThrownBy(() -> new ClientHello("x", 0, 1, 54460, "", "", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("user");
    }
}
