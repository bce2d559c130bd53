package dev.sluice.clickhouse.block;

import static dev.sluice.clickhouse.column.ColumnTestSupport.hex;
import static dev.sluice.clickhouse.column.ColumnTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.column.ColumnTestSupport;
import dev.sluice.clickhouse.column.GoldenData;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole blocks: ch-go's golden blocks (written at its protocol version 54460) and two Native dumps
 * a real server wrote ({@code FORMAT Native}, so revision 0: no BlockInfo, no custom byte).
 */
class NativeBlockGoldenTest {
    static final int CH_GO_REVISION = 54460;

    static byte[] write(Block b, int revision) {
        WireOutput out = new WireOutput(64);
        NativeBlockCodec.write(b, out, revision);
        return out.toByteArray();
    }

    /** proto/block_test.go TestBlock_EncodeBlock: count Int8, users UInt64, five rows. */
    static Block countUsers() {
        Column count = ColumnFactory.create("count", "Int8");
        Column users = ColumnFactory.create("users", "UInt64");
        long[] u = {5467267, 175676, 956105, 18347896, 554714};
        for (int i = 0; i < 5; i++) {
            count.appendLong(i + 1);
            users.appendLong(u[i]);
        }
        return Block.of(List.of(count, users));
    }

    @Test
    void blockInt8UInt64MatchesChGo() {
        byte[] golden = GoldenData.read("ch-go/proto/golden/block_int8_uint64.raw");
        assertThat(hex(write(countUsers(), CH_GO_REVISION))).isEqualTo(hex(golden));

        NativeBlockCodec.Decoded d = NativeBlockCodec.read(WireInput.of(golden), CH_GO_REVISION);
        assertThat(d.info()).isEqualTo(new NativeBlockCodec.Info(false, -1));
        assertThat(d.block().typeNames()).containsExactly("Int8", "UInt64");
        assertThat(values(d.block().column("count"))).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(values(d.block().column("users")))
                .containsExactly(5467267L, 175676L, 956105L, 18347896L, 554714L);
    }

    @Test
    void blockTitleDataIsOurBlockWithoutItsBlockInfo() {
        // proto/block_test.go TestBlock_EncodeRawBlock: ch-go's "raw" block has no BlockInfo but
        // does have the custom-serialization byte, a combination no server revision produces. It
        // equals our revision-54460 block minus the 8 BlockInfo bytes.
        byte[] golden = GoldenData.read("ch-go/proto/golden/block_title_data.raw");
        Column title = ColumnFactory.create("title", "String");
        title.appendString("Foo");
        title.appendString("Bar");
        Column data = ColumnFactory.create("data", "Int64");
        data.appendLong(1);
        data.appendLong(2);
        byte[] ours = write(Block.of(List.of(title, data)), CH_GO_REVISION);

        assertThat(hex(Arrays.copyOfRange(ours, 8, ours.length))).isEqualTo(hex(golden));

        byte[] withInfo = new byte[8 + golden.length];
        System.arraycopy(ours, 0, withInfo, 0, 8);
        System.arraycopy(golden, 0, withInfo, 8, golden.length);
        Block decoded = NativeBlockCodec.read(WireInput.of(withInfo), CH_GO_REVISION).block();
        assertThat(values(decoded.column("title"))).containsExactly("Foo", "Bar");
        assertThat(values(decoded.column("data"))).containsExactly(1L, 2L);
    }

    @Test
    void arrayOfStringBlockMatchesChGo() {
        // block_fuzz_test.go encodeTestStrBlock: column foo Array(String), three rows.
        byte[] golden = GoldenData.read("ch-go/golden/test_arr_str_block.raw");
        ArrayColumn foo = (ArrayColumn) ColumnFactory.create("foo", "Array(String)");
        for (String[] row :
                new String[][] {{"foo", "bar"}, {"1", "2", "3", "4"}, {"", "123".repeat(3)}}) {
            for (String s : row) {
                foo.elements().appendString(s);
            }
            foo.endArray();
        }
        assertThat(hex(write(Block.of(List.of(foo)), CH_GO_REVISION))).isEqualTo(hex(golden));

        Block decoded = NativeBlockCodec.read(WireInput.of(golden), CH_GO_REVISION).block();
        assertThat(values(decoded.column("foo")))
                .containsExactly(
                        List.of("foo", "bar"),
                        List.of("1", "2", "3", "4"),
                        List.of("", "123123123"));
    }

    @Test
    void arrayOfIPv6BlockMatchesChGo() throws IOException {
        // block_fuzz_test.go encodeTestIPv6Block: column foo Array(IPv6), three rows.
        byte[] golden = GoldenData.read("ch-go/golden/test_arr_ipv6_block.raw");
        String[][] rows = {
            {"100::", "200::"}, {"300::", "400::", "500::", "600::"}, {"2001:db8::", "2002::"}
        };
        ArrayColumn foo = (ArrayColumn) ColumnFactory.create("foo", "Array(IPv6)");
        for (String[] row : rows) {
            for (String ip : row) {
                foo.elements().appendBytes(InetAddress.getByName(ip).getAddress());
            }
            foo.endArray();
        }
        assertThat(hex(write(Block.of(List.of(foo)), CH_GO_REVISION))).isEqualTo(hex(golden));

        Block decoded = NativeBlockCodec.read(WireInput.of(golden), CH_GO_REVISION).block();
        ArrayColumn d = (ArrayColumn) decoded.column("foo");
        assertThat(d.end(2)).isEqualTo(8);
        byte[] last = (byte[]) d.elements().getObject(7);
        assertThat(InetAddress.getByAddress(last).getHostAddress()).isEqualTo("2002:0:0:0:0:0:0:0");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void serverDumpOfTwoBlocksDecodes(boolean oneByteAtATime) {
        // proto/dump_test.go: SELECT * FROM test_dump ORDER BY id FORMAT Native, table
        // (id Int8, v String). The server wrote one block per part.
        byte[] dump = GoldenData.read("ch-go/proto/testdata/test_dump_native.raw");
        WireInput in = oneByteAtATime ? ColumnTestSupport.trickle(dump) : WireInput.of(dump);

        Block first = NativeBlockCodec.read(in, 0).block();
        Block second = NativeBlockCodec.read(in, 0).block();

        assertThat(in.atEnd()).isTrue();
        assertThat(first.typeNames()).containsExactly("Int8", "String");
        assertThat(values(first.column("id"))).containsExactly(1L);
        assertThat(values(first.column("v"))).containsExactly("First");
        assertThat(values(second.column("id"))).containsExactly(2L, 3L);
        assertThat(values(second.column("v"))).containsExactly("Second", "Third");
        assertThat(write(first, 0)).isEqualTo(Arrays.copyOf(dump, write(first, 0).length));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void serverDumpOfArrayOfLowCardinalityDecodes(boolean oneByteAtATime) {
        // proto/dump_test.go TestDumpLowCardinality: v Array(LowCardinality(String)). The server
        // put the default "" at key 0 although no row uses it.
        byte[] dump = GoldenData.read("ch-go/proto/testdata/select_lc.raw");
        WireInput in = oneByteAtATime ? ColumnTestSupport.trickle(dump) : WireInput.of(dump);

        Block block = NativeBlockCodec.read(in, 0).block();

        assertThat(in.atEnd()).isTrue();
        assertThat(block.typeNames()).containsExactly("Array(LowCardinality(String))");
        List<Object> expected =
                List.of(
                        List.of("foo", "bar", "baz"),
                        List.of("foo"),
                        List.of("bar", "bar"),
                        List.of("foo", "foo"),
                        List.of("bar", "bar", "bar", "bar"));
        assertThat(values(block.column("v"))).isEqualTo(expected);

        // Our encoding of it differs only in the dictionary: no unused "" key.
        byte[] ours = write(block, 0);
        assertThat(ours).hasSize(dump.length - 1); // the one-byte empty key
        assertThat(values(NativeBlockCodec.read(WireInput.of(ours), 0).block().column("v")))
                .isEqualTo(expected);
    }

    @Test
    void chGoBlockHeaderWithFlagsDecodesUntilTheDataRunsOut() {
        // proto/golden/type/Block.raw: BlockInfo(overflows, bucket 2014), 15 columns, 10 rows,
        // and nothing after: a header without its columns.
        byte[] header = GoldenData.read("ch-go/proto/golden/type/Block.raw");
        assertThat(hex(header)).isEqualTo("01 01 02 de 07 00 00 00 0f 0a");
        assertThatThrownBy(() -> NativeBlockCodec.read(WireInput.of(header), CH_GO_REVISION))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("end of stream");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ch-go/proto/golden/block_int8_uint64.raw",
                "ch-go/golden/test_arr_str_block.raw",
                "ch-go/golden/test_arr_ipv6_block.raw"
            })
    void everyTruncationOfAGoldenBlockIsAWireException(String file) {
        byte[] golden = GoldenData.read(file);
        for (int cut = 0; cut < golden.length; cut++) {
            WireInput in = WireInput.of(Arrays.copyOf(golden, cut));
            assertThatThrownBy(() -> NativeBlockCodec.read(in, CH_GO_REVISION))
                    .as("cut at %d", cut)
                    .isInstanceOf(WireException.class);
        }
    }

    @Test
    void everyTruncationOfTheServerDumpsIsAWireException() {
        for (String file : List.of("test_dump_native.raw", "select_lc.raw")) {
            byte[] dump = GoldenData.read("ch-go/proto/testdata/" + file);
            int firstBlock = file.startsWith("test_dump") ? 26 : dump.length;
            for (int cut = 0; cut < firstBlock; cut++) {
                WireInput in = WireInput.of(Arrays.copyOf(dump, cut));
                assertThatThrownBy(() -> NativeBlockCodec.read(in, 0))
                        .as("%s cut at %d", file, cut)
                        .isInstanceOf(WireException.class);
            }
        }
    }
}
