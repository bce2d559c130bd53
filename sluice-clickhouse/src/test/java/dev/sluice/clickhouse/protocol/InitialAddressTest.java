package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InitialAddressTest {

    private static InetAddress ip(int... bytes) throws UnknownHostException {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return InetAddress.getByAddress(b);
    }

    @Test
    void formatsIpv4WithPort() throws UnknownHostException {
        assertThat(InitialAddress.format(new InetSocketAddress(ip(127, 0, 0, 1), 53122)))
                .isEqualTo("127.0.0.1:53122");
    }

    @Test
    void formatsIpv6InBracketsInItsShortestForm() throws UnknownHostException {
        assertThat(
                        InitialAddress.format(
                                new InetSocketAddress(
                                        ip(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 40000)))
                .isEqualTo("[::1]:40000");
        // Two runs of two zero groups: the first is shortened (RFC 5952).
        assertThat(
                        InitialAddress.format(
                                new InetSocketAddress(
                                        ip(
                                                0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                                                0, 0, 1),
                                        1)))
                .isEqualTo("[2001:db8::1:0:0:1]:1");
        assertThat(InitialAddress.format(new InetSocketAddress(ip(new int[16]), 0)))
                .isEqualTo("[::]:0");
    }

    @Test
    void dropsTheIpv6ZoneId() throws UnknownHostException {
        byte[] linkLocal = new byte[16];
        linkLocal[0] = (byte) 0xfe;
        linkLocal[1] = (byte) 0x80;
        linkLocal[15] = 1;
        InetAddress scoped = Inet6Address.getByAddress(null, linkLocal, 3);

        assertThat(InitialAddress.format(new InetSocketAddress(scoped, 9000)))
                .isEqualTo("[fe80::1]:9000");
    }

    @Test
    void refusesAnUnresolvedHostName() {
        assertThatThrownBy(
                        () ->
                                InitialAddress.format(
                                        InetSocketAddress.createUnresolved("db.example", 9000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.example");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0.0.0.0:0",
                "10.0.0.5:53122",
                "255.255.255.255:65535",
                "[::1]:40000",
                "[::]:0",
                "[::ffff:127.0.0.1]:0",
                "[2001:db8:0:0:1:0:0:1]:9000",
                "[1:2:3:4:5:6:7:8]:1"
            })
    void acceptsIpLiteralsWithPort(String address) {
        assertThat(InitialAddress.requireLiteral(address)).isEqualTo(address);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "localhost:9000",
                "127.0.0.1",
                "127.0.0.1:",
                "127.0.0.1:70000",
                "127.0.0.1:9x",
                "256.0.0.1:1",
                "1.2.3:1",
                "::1:9000",
                "[::1]",
                "[::1]9000",
                "[fe80::1%eth0]:1",
                "[1:2:3:4:5:6:7:8:9]:1",
                "[1::2::3]:1",
                "[12345::]:1",
                "/tmp/socket"
            })
    void refusesAnythingElse(String address) {
        assertThatThrownBy(() -> InitialAddress.requireLiteral(address))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + address + "'");
    }
}
