package dev.sluice.clickhouse.protocol;

import static dev.sluice.clickhouse.protocol.ColumnDescription.DefaultKind.ALIAS;
import static dev.sluice.clickhouse.protocol.ColumnDescription.DefaultKind.DEFAULT;
import static dev.sluice.clickhouse.protocol.ColumnDescription.DefaultKind.EPHEMERAL;
import static dev.sluice.clickhouse.protocol.ColumnDescription.DefaultKind.MATERIALIZED;
import static dev.sluice.clickhouse.protocol.ColumnDescription.DefaultKind.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableColumnsTest {

    private static final String HEAD = "columns format version: 1\n";

    @Test
    void decodesChGoGoldenTableColumns() {
        // proto/table_columns_test.go: First "", Second "...1 columns:\n`id` UInt8\n".
        WireInput in = Bytes.in(Golden.bytes("type/TableColumns"));

        assertThat(ServerPacketType.read(in)).isEqualTo(ServerPacketType.TABLE_COLUMNS);
        TableColumns packet = TableColumns.read(in, 54460);

        assertThat(packet).isEqualTo(new TableColumns("", HEAD + "1 columns:\n`id` UInt8\n"));
        assertThat(packet.columns())
                .containsExactly(new ColumnDescription("id", "UInt8", NONE, ""));
        assertThat(in.atEnd()).isTrue();
    }

    /**
     * Sent by the 18.16.1 test server (revision 54412) for an INSERT with {@code
     * insert_sample_with_metadata=1} into {@code (a UInt32, b UInt32 DEFAULT a * 2 COMMENT 'it''s
     * \\ "b"', `we\`ird` String MATERIALIZED concat('x', '\t'), d UInt32 ALIAS a + 1, e Enum8('x' =
     * 1, 'y\'' = 2) DEFAULT 'x', f DateTime('Europe/Moscow') COMMENT 'tz')}.
     */
    private static final String FROM_18_16 =
            HEAD
                    + "6 columns:\n"
                    + "`a` UInt32\n"
                    + "`b` UInt32\tDEFAULT\tCAST(a * 2, \\'UInt32\\')\t\\'it\\\\\\'s \\\\\\\\ \"b\"\\'\n"
                    + "`e` Enum8(\\'x\\' = 1, \\'y\\\\\\'\\' = 2)\tDEFAULT\tCAST(\\'x\\', \\'Enum8(\\\\\\'x\\\\\\' = 1, \\\\\\'y\\\\\\\\\\\\\\'\\\\\\' = 2)\\')\n"
                    + "`f` DateTime(\\'Europe/Moscow\\')\t\t\\'tz\\'\n"
                    + "`we\\`ird` String\tMATERIALIZED\tconcat(\\'x\\', \\'\\\\t\\')\n"
                    + "`d` UInt32\tALIAS\tCAST(a + 1, \\'UInt32\\')\n";

    @Test
    void readsTheBodyAt54412AndParsesThe18_16Form() {
        WireInput in = Bytes.in(Bytes.written(out -> out.writeString("").writeString(FROM_18_16)));

        TableColumns packet = TableColumns.read(in, 54412);

        assertThat(in.atEnd()).isTrue();
        assertThat(packet.columns())
                .containsExactly(
                        new ColumnDescription("a", "UInt32", NONE, ""),
                        new ColumnDescription(
                                "b",
                                "UInt32",
                                DEFAULT,
                                "CAST(a * 2, 'UInt32')",
                                "it's \\ \"b\"",
                                List.of()),
                        new ColumnDescription(
                                "e",
                                "Enum8('x' = 1, 'y\\'' = 2)",
                                DEFAULT,
                                "CAST('x', 'Enum8(\\'x\\' = 1, \\'y\\\\\\'\\' = 2)')"),
                        new ColumnDescription(
                                "f", "DateTime('Europe/Moscow')", NONE, "", "tz", List.of()),
                        new ColumnDescription(
                                "we`ird", "String", MATERIALIZED, "concat('x', '\\t')"),
                        new ColumnDescription("d", "UInt32", ALIAS, "CAST(a + 1, 'UInt32')"));
        assertThat(packet.columns().stream().map(ColumnDescription::insertable))
                .containsExactly(true, true, true, true, false, false);
    }

    @Test
    void parsesThe19xForm() {
        String text =
                HEAD
                        + "2 columns:\n"
                        + "`d` Date\n"
                        + "`s` String\tDEFAULT\t\\'x\\'\tCOMMENT \\'hi\\'\tCODEC(ZSTD(1))"
                        + "\tTTL d + toIntervalDay(1)\n";

        assertThat(ColumnsDescriptionParser.parse(text))
                .containsExactly(
                        new ColumnDescription("d", "Date", NONE, ""),
                        new ColumnDescription(
                                "s",
                                "String",
                                DEFAULT,
                                "'x'",
                                "hi",
                                List.of("CODEC(ZSTD(1))", "TTL d + toIntervalDay(1)")));
    }

    @Test
    void parsesTheNewestForm() {
        String text =
                HEAD
                        + "3 columns:\n"
                        + "`id` UInt64\tCOMMENT \\'tab\\\\there\\'\tSTATISTICS(tdigest)"
                        + "\tSETTINGS (max_compress_block_size = 1024)\n"
                        + "`raw` String\tEPHEMERAL\t\\'\\'\n"
                        + "`n` Nested(a UInt8)\tMATERIALIZED\tlength(raw)\tCODEC(LZ4)\n";

        assertThat(ColumnsDescriptionParser.parse(text))
                .containsExactly(
                        new ColumnDescription(
                                "id",
                                "UInt64",
                                NONE,
                                "",
                                "tab\there",
                                List.of(
                                        "STATISTICS(tdigest)",
                                        "SETTINGS (max_compress_block_size = 1024)")),
                        new ColumnDescription("raw", "String", EPHEMERAL, "''"),
                        new ColumnDescription(
                                "n",
                                "Nested(a UInt8)",
                                MATERIALIZED,
                                "length(raw)",
                                "",
                                List.of("CODEC(LZ4)")));
    }

    @Test
    void decodesEscapesInNamesAndUtf8() {
        String text = HEAD + "2 columns:\n" + "`t\\tab\\\\ \\xC3\\xA9 ü` String\n" + "`` String\n";

        assertThat(ColumnsDescriptionParser.parse(text))
                .extracting(ColumnDescription::name)
                .containsExactly("t\tab\\ é ü", "");
    }

    @Test
    void anEmptyTableHasNoColumns() {
        assertThat(ColumnsDescriptionParser.parse(HEAD + "0 columns:\n")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "columns format version: 2\n0 columns:\n",
                HEAD + "columns:\n",
                HEAD + "x columns:\n",
                HEAD + "2 columns:\n`a` UInt8\n",
                HEAD + "1 columns:\n`a` UInt8\n`b` UInt8\n",
                HEAD + "1 columns:\n`a` UInt8",
                HEAD + "1 columns:\na UInt8\n",
                HEAD + "1 columns:\n`a UInt8\n",
                HEAD + "1 columns:\n`a`UInt8\n",
                HEAD + "1 columns:\n`a` \n",
                HEAD + "1 columns:\n`a` UInt8\tDEFAULT\t\\\n",
                HEAD + "1 columns:\n`a` UInt8\tCOMMENT x\n",
                HEAD + "1 columns:\n`a\\x4` UInt8\n"
            })
    void malformedDescriptionsAreWireExceptions(String text) {
        assertThatThrownBy(() -> ColumnsDescriptionParser.parse(text))
                .isInstanceOf(WireException.class)
                .hasMessageStartingWith("malformed columns description: ");
    }

    @Test
    void truncatedPacketIsAWireException() {
        byte[] golden = Golden.bytes("type/TableColumns");
        WireInput in = Bytes.in(Bytes.dropLast(golden, 1));
        ServerPacketType.read(in);

        assertThatThrownBy(() -> TableColumns.read(in, 54460)).isInstanceOf(WireException.class);
    }
}
