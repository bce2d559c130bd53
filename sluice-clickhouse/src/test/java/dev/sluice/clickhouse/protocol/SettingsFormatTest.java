package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingsFormatTest {

    private static byte[] binary(String name, String value) {
        return Bytes.written(
                out -> SettingsFormat.write(out, List.of(new QuerySetting(name, value)), 54412));
    }

    private static byte[] expected(String name, String valueHex) {
        return Bytes.written(
                out -> out.writeString(name).writeBytes(Bytes.hex(valueHex)).writeString(""));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        // SettingUInt64: VarUInt
        "max_block_size, 65536, 80 80 04",
        "max_insert_block_size, 0, 00",
        "max_memory_usage, 18446744073709551615, ff ff ff ff ff ff ff ff ff 01",
        // SettingBool is a UInt64 in 18.x
        "insert_deduplicate, true, 01",
        "insert_deduplicate, FALSE, 00",
        "insert_deduplicate, 1, 01",
        // SettingSeconds / SettingMilliseconds: VarUInt of the count
        "connect_timeout, 10, 0a",
        "queue_max_wait_ms, 5000, 88 27",
        // SettingMaxThreads: 'auto' is 0
        "max_threads, auto, 00",
        "max_threads, 8, 08",
        // SettingInt64: zig-zag VarInt
        "network_zstd_compression_level, 3, 06",
        "network_zstd_compression_level, -3, 05",
        "distributed_ddl_task_timeout, -1, 01",
        // SettingFloat: the text as a String
        "totals_auto_threshold, 0.5, 03 30 2e 35",
        "max_streams_to_max_threads_ratio, 1e2, 03 31 65 32",
        // String and enum-like settings: String
        "load_balancing, nearest_hostname, 10 6e 65 61 72 65 73 74 5f 68 6f 73 74 6e 61 6d 65",
        "totals_mode, before_having, 0d 62 65 66 6f 72 65 5f 68 61 76 69 6e 67",
        "group_by_overflow_mode, any, 03 61 6e 79",
        "network_compression_method, zstd, 04 7a 73 74 64",
        "join_default_strictness, ALL, 03 41 4c 4c",
        "date_time_input_format, best_effort, 0b 62 65 73 74 5f 65 66 66 6f 72 74",
        "send_logs_level, trace, 05 74 72 61 63 65",
        "format_csv_delimiter, ;, 01 3b",
        "count_distinct_implementation, uniq, 04 75 6e 69 71"
    })
    void encodesBinarySettingsByType(String name, String value, String valueHex) {
        assertThat(binary(name, value)).isEqualTo(expected(name, valueHex));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        "max_block_size, -1",
        "max_block_size, 1.5",
        "max_block_size, 18446744073709551616",
        "insert_deduplicate, yes",
        "connect_timeout, ''",
        "max_threads, many",
        "network_zstd_compression_level, 1.0",
        "totals_auto_threshold, abc",
        "totals_auto_threshold, inf"
    })
    void refusesValuesTheTypeCannotCarry(String name, String value) {
        assertThatThrownBy(() -> binary(name, value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(name)
                .hasMessageContaining("'" + value + "'");
    }

    @Test
    void refusesSettingsUnknownToBinaryServers() {
        assertThatThrownBy(() -> binary("async_insert", "0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "setting async_insert is not known to servers speaking revision 54412"
                                + " (binary settings); ");
    }

    @Test
    void sendsStringsWithTheImportantFlagFrom54429() {
        byte[] bytes =
                Bytes.written(
                        out ->
                                SettingsFormat.write(
                                        out,
                                        List.of(
                                                new QuerySetting("async_insert", "0"),
                                                new QuerySetting("max_block_size", "8192")),
                                        54429));

        assertThat(bytes)
                .isEqualTo(
                        Bytes.written(
                                out ->
                                        out.writeString("async_insert")
                                                .writeVarUInt(0x01)
                                                .writeString("0")
                                                .writeString("max_block_size")
                                                .writeVarUInt(0x01)
                                                .writeString("8192")
                                                .writeString("")));
    }

    @Test
    void anEmptyListIsJustTheTerminator() {
        assertThat(Bytes.written(out -> SettingsFormat.write(out, List.of(), 54412)))
                .isEqualTo(Bytes.hex("00"));
        assertThat(Bytes.written(out -> SettingsFormat.write(out, List.of(), 54460)))
                .isEqualTo(Bytes.hex("00"));
    }

    @Test
    void theBinaryTableHasEvery18_16Setting() throws IOException {
        // 184 settings, as system.settings of the 18.16.1 test server lists them.
        String table;
        try (InputStream in =
                SettingsFormat.class.getResourceAsStream("binary-settings-18.16.1.tsv")) {
            table = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> names =
                table.lines()
                        .filter(l -> !l.isBlank() && !l.startsWith("#"))
                        .map(l -> l.split("\t")[0])
                        .toList();

        assertThat(names).hasSize(184).doesNotHaveDuplicates();
        assertThat(names)
                .allSatisfy(name -> assertThat(SettingsFormat.binaryType(name, 54412)).isNotNull());
        assertThat(names)
                .contains("insert_sample_with_metadata", "low_cardinality_allow_in_native_format");
    }

    @Test
    void refusesAnEmptyName() {
        assertThatThrownBy(() -> new QuerySetting("", "1"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
