package dev.sluice.pipeline.decode.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.it.TestServer;
import dev.sluice.clickhouse.schema.SchemaDiscovery;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where Sluice reads an input differently from ClickHouse 18.16, on purpose (docs/formats.md lists
 * them): one value per case, inserted by {@code clickhouse-client} and decoded by Sluice, each
 * result pinned. {@code error} stands for a rejected record.
 */
class DifferencesIT {

    static Stream<Arguments> cases() {
        return Stream.of(
                // Out-of-range numbers: 18.16 wraps them around, Sluice rejects the record.
                Arguments.of(
                        "UInt8", "TabSeparated", "300", "44", "error: value 300 is out of range"),
                Arguments.of(
                        "Int64",
                        "TabSeparated",
                        "9223372036854775808",
                        "-9223372036854775808",
                        "error: value 9223372036854775808 is out of range"),
                Arguments.of(
                        "UInt8",
                        "JSONEachRow",
                        "{\"x\":300}",
                        "44",
                        "error: value 300 is out of range"),
                // 18.16 reads a subnormal double as 0.
                Arguments.of("Float64", "TabSeparated", "4.9E-324", "0", "5e-324"),
                // Impossible calendar dates: 18.16 rolls them over, Sluice rejects them.
                Arguments.of(
                        "DateTime",
                        "TabSeparated",
                        "2024-02-30 00:00:00",
                        "2024-03-01 00:00:00",
                        "error: '2024-02-30 00:00:00' is not a DateTime"),
                Arguments.of(
                        "Date",
                        "TabSeparated",
                        "2150-01-01",
                        "0000-00-00",
                        "error: 2150-01-01 is outside the range of Date"),
                // ISO-8601, Enum numbers, double quotes in arrays: Sluice reads more.
                Arguments.of(
                        "DateTime",
                        "TabSeparated",
                        "2024-01-01T05:30:00+05:30",
                        "error",
                        "2024-01-01 00:00:00"),
                Arguments.of("Enum8('a' = 1)", "TabSeparated", "1", "error", "a"),
                Arguments.of("Array(String)", "TabSeparated", "[\"a\"]", "error", "['a']"),
                // JSON: numbers for strings and dates, strings for decimals.
                Arguments.of("String", "JSONEachRow", "{\"x\":5}", "error", "5"),
                Arguments.of("Date", "JSONEachRow", "{\"x\":19723}", "error", "2024-01-01"),
                Arguments.of("Decimal(9, 2)", "JSONEachRow", "{\"x\":\"1.5\"}", "error", "1.50"),
                // JSON: 18.16 takes a bare -inf, which is not JSON; Jackson takes -Infinity.
                Arguments.of(
                        "Float64", "JSONEachRow", "{\"x\":-inf}", "-inf", "error: invalid JSON"),
                // CSV: an empty field in a Nullable column is NULL
                // (input_format_csv_empty_as_default).
                Arguments.of("Nullable(Int32)", "CSV", "", "0", "\\N"),
                // CSV: single quotes are text (RFC 4180); 18.16 treats them as quotes.
                Arguments.of(
                        "String",
                        "CSV",
                        "'a,b'",
                        "a,b",
                        "error: expected 1 CSV fields, found more"),
                // CSV: 18.16 spreads a tuple over several fields; Sluice reads one field.
                Arguments.of(
                        "Tuple(String, Int64)",
                        "CSV",
                        "a,1",
                        "('a',1)",
                        "error: 'a' is not a Tuple"),
                Arguments.of("Tuple(String, Int64)", "CSV", "\"('a',1)\"", "error", "('a',1)"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void bothReadersArePinned(
            String type, String format, String input, String clickhouse, String sluice) {
        String theirs = TestServer.newTable("diff_ch");
        String ours = TestServer.newTable("diff_sluice");
        byte[] file = (input + "\n").getBytes(StandardCharsets.UTF_8);
        String select = "SELECT x FROM %s FORMAT TabSeparated";
        try (NativeConnection c = TestServer.connect()) {
            c.execute("CREATE TABLE " + theirs + " (x " + type + ") ENGINE = Memory");
            c.execute("CREATE TABLE " + ours + " (x " + type + ") ENGINE = Memory");
            String chResult;
            try {
                TestServer.clickhouseClient("INSERT INTO " + theirs + " FORMAT " + format, file);
                chResult = TestServer.clickhouseClient(select.formatted(theirs)).strip();
            } catch (IllegalStateException e) {
                chResult = "error";
            }
            assertThat(chResult).as("ClickHouse 18.16").isEqualTo(clickhouse);

            TableSchema schema = SchemaDiscovery.describe(c, ours);
            Format f =
                    format.equals("JSONEachRow")
                            ? Format.JSON
                            : format.equals("CSV") ? Format.CSV : Format.TSV;
            DecodeSpec spec = new DecodeSpec(f, List.of(), false, Map.of(), false, ',');
            TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), schema);
            Decoder decoder = DecoderFactory.create(spec, target);
            Rows rows = new Rows(target).decode(decoder, Records.split(file, f == Format.CSV));
            String sluiceResult;
            if (!rows.errors.isEmpty()) {
                sluiceResult = "error: " + rows.errors.get(0);
            } else {
                c.insert(ours, rows.block, Map.of(), null);
                sluiceResult = TestServer.clickhouseClient(select.formatted(ours)).strip();
            }
            if (sluice.startsWith("error: ")) {
                assertThat(sluiceResult).as("Sluice").startsWith("error: ");
                assertThat(sluiceResult).as("Sluice").contains(sluice.substring(7));
            } else {
                assertThat(sluiceResult).as("Sluice").isEqualTo(sluice);
            }
        }
    }
}
