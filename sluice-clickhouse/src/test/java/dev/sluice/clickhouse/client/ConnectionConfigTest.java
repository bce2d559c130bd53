package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.compress.CompressionMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionConfigTest {
    private static final Map<String, String> NO_ENV = Map.of();

    private static ConnectionConfig parse(String url) {
        return ConnectionConfig.parse(url, NO_ENV::get);
    }

    @Test
    void defaults() {
        ConnectionConfig c = parse("clickhouse://localhost");
        assertThat(c.transport()).isEqualTo(ConnectionConfig.Transport.NATIVE);
        assertThat(c.port()).isEqualTo(9000);
        assertThat(c.user()).isEqualTo("default");
        assertThat(c.database()).isEqualTo("default");
        assertThat(c.password().isEmpty()).isTrue();
        assertThat(c.compression()).isEqualTo(CompressionMethod.LZ4);
        assertThat(c.zstdLevel()).isEqualTo(3);
        assertThat(c.secure()).isFalse();
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.readTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(c.writeTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(c.operationTimeout()).isEqualTo(Duration.ZERO);
    }

    @Test
    void writeAndOperationTimeouts() {
        ConnectionConfig c =
                parse("http://h/?write_timeout=15s&operation_timeout=2m&connect_timeout=0");
        assertThat(c.writeTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.operationTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.connectTimeout()).isZero();
        assertThat(c.settings()).isEmpty(); // not passed on as ClickHouse settings
        ConnectionConfig copy = c.toBuilder().build();
        assertThat(copy.writeTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(copy.operationTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThatThrownBy(() -> parse("clickhouse://h?operation_timeout=-5s"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("operation_timeout");
        assertThatThrownBy(() -> parse("clickhouse://h?write_timeout=later"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("write_timeout");
        assertThatThrownBy(
                        () -> ConnectionConfig.builder().operationTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("operation_timeout must be zero (no limit) or positive, got PT-1S");
    }

    @Test
    void everyParameter() {
        ConnectionConfig c =
                parse(
                        "clickhouse://bob:p%40ss@db.example:9441/analytics?compression=zstd"
                                + "&zstd_level=7&secure=true&ssl_root_cert=/etc/ca.pem"
                                + "&connect_timeout=500ms&read_timeout=2m&client_name=etl"
                                + "&max_insert_threads=4");
        assertThat(c.host()).isEqualTo("db.example");
        assertThat(c.port()).isEqualTo(9441);
        assertThat(c.user()).isEqualTo("bob");
        assertThat(c.password().reveal()).isEqualTo("p@ss");
        assertThat(c.database()).isEqualTo("analytics");
        assertThat(c.compression()).isEqualTo(CompressionMethod.ZSTD);
        assertThat(c.zstdLevel()).isEqualTo(7);
        assertThat(c.secure()).isTrue();
        assertThat(c.sslRootCert()).isEqualTo(Path.of("/etc/ca.pem"));
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.readTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.clientName()).isEqualTo("etl");
        assertThat(c.settings()).containsExactly(Map.entry("max_insert_threads", "4"));
    }

    @Test
    void schemesPickTransportAndDefaultPorts() {
        assertThat(parse("clickhouses://h").port()).isEqualTo(9440);
        assertThat(parse("clickhouses://h").secure()).isTrue();
        assertThat(parse("clickhouse://h?secure=true").port()).isEqualTo(9440);
        assertThat(parse("http://h").transport()).isEqualTo(ConnectionConfig.Transport.HTTP);
        assertThat(parse("http://h").port()).isEqualTo(8123);
        assertThat(parse("https://h").port()).isEqualTo(8443);
        assertThat(parse("http://h?http_compression=gzip").httpContentEncoding()).isEqualTo("gzip");
        assertThatThrownBy(() -> parse(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("no ClickHouse URL given");
        assertThatThrownBy(() -> parse("  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("no ClickHouse URL given");
        assertThatThrownBy(() -> parse("postgres://h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("clickhouse://");
    }

    @Test
    void passwordsFromEnvironmentAndFileNeverShow(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pw");
        Files.writeString(file, "from-file\nignored second line\n");
        ConnectionConfig fromFile = parse("clickhouse://u@h/?password_file=" + file);
        assertThat(fromFile.password().reveal()).isEqualTo("from-file");

        ConnectionConfig fromEnv =
                ConnectionConfig.parse(
                        "clickhouse://u@h/?password_env=SECRET_PW",
                        Map.of("SECRET_PW", "from-env")::get);
        assertThat(fromEnv.password().reveal()).isEqualTo("from-env");

        ConnectionConfig defaultEnv =
                ConnectionConfig.parse(
                        "clickhouse://u@h/", Map.of("CLICKHOUSE_PASSWORD", "dflt")::get);
        assertThat(defaultEnv.password().reveal()).isEqualTo("dflt");

        assertThatThrownBy(() -> parse("clickhouse://u@h/?password_env=MISSING"))
                .hasMessageContaining("MISSING");

        ConnectionConfig inline = parse("clickhouse://u:hunter2@h/");
        assertThat(inline.toString()).doesNotContain("hunter2").contains("u:******@");
        assertThat(inline.password().toString()).isEqualTo("******");
        assertThat(ConnectionConfig.redact("clickhouse://u:hunter2@h:9000/db?password=x2&a=b"))
                .isEqualTo("clickhouse://u:******@h:9000/db?password=******&a=b");
    }

    @Test
    void badValuesNameTheParameter() {
        assertThatThrownBy(() -> parse("clickhouse://h?compression=snappy"))
                .hasMessageContaining("none, lz4, zstd");
        assertThatThrownBy(() -> parse("clickhouse://h?read_timeout=soon"))
                .hasMessageContaining("read_timeout");
        assertThatThrownBy(() -> parse("clickhouse://h?zstd_level=x"))
                .hasMessageContaining("zstd_level");
        assertThatThrownBy(() -> parse("clickhouse://h?secure=maybe"))
                .hasMessageContaining("secure");
        assertThatThrownBy(() -> parse("clickhouse://u:pw@:9000/")).hasMessageNotContaining("pw@");
    }
}
