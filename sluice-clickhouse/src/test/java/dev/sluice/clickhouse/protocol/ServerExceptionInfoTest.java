package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import org.junit.jupiter.api.Test;

class ServerExceptionInfoTest {

    private static void exception(WireOutput out, int code, String message, boolean nested) {
        out.writeInt32(code)
                .writeString("DB::Exception")
                .writeString(message)
                .writeString("stack of " + code)
                .writeBoolean(nested);
    }

    @Test
    void decodesChGoGoldenException() {
        // proto/exception_test.go: ErrUnknownTable (60), a 2.4 kB stack trace, no nested one.
        WireInput in = Bytes.in(Golden.bytes("type/Exception"));

        ServerExceptionInfo e = ServerExceptionInfo.read(in, 54460);

        assertThat(e.code()).isEqualTo(60);
        assertThat(e.name()).isEqualTo("DB::Exception");
        assertThat(e.message()).isEqualTo("DB::Exception: Table default._3_ doesn't exist");
        assertThat(e.stackTrace())
                .startsWith("0. DB::Exception::Exception(std::__1::basic_string<char, ")
                .contains("\n16x\n17. /build/glibc-YbNSs7/")
                .endsWith("/libc-2.31.so\n");
        assertThat(e.nested()).isNull();
        assertThat(in.atEnd()).isTrue();
        assertThat(e.toString())
                .isEqualTo("Code: 60. DB::Exception: Table default._3_ doesn't exist");
    }

    @Test
    void decodesANestedChain() {
        byte[] bytes =
                Bytes.written(
                        out -> {
                            exception(out, 1000, "outer", true);
                            exception(out, 999, "middle", true);
                            exception(out, 998, "inner", false);
                        });
        WireInput in = Bytes.in(bytes);

        ServerExceptionInfo e = ServerExceptionInfo.read(in, 54412);

        assertThat(e.code()).isEqualTo(1000);
        assertThat(e.nested().code()).isEqualTo(999);
        assertThat(e.nested().nested())
                .isEqualTo(
                        new ServerExceptionInfo(
                                998, "DB::Exception", "inner", "stack of 998", null));
        assertThat(in.atEnd()).isTrue();
        assertThat(e.toString())
                .isEqualTo(
                        "Code: 1000. DB::Exception: outer; caused by Code: 999. DB::Exception:"
                                + " middle; caused by Code: 998. DB::Exception: inner");
    }

    @Test
    void truncatedExceptionIsAWireException() {
        byte[] golden = Golden.bytes("type/Exception");

        for (int cut : new int[] {1, 2, 100, golden.length - 1}) {
            WireInput in = Bytes.in(java.util.Arrays.copyOf(golden, cut));
            assertThatThrownBy(() -> ServerExceptionInfo.read(in, 54460))
                    .isInstanceOf(WireException.class)
                    .hasMessageContaining("unexpected end of stream");
        }
    }

    @Test
    void refusesAnEndlessChain() {
        byte[] bytes =
                Bytes.written(
                        out -> {
                            for (int i = 0; i <= ServerExceptionInfo.MAX_DEPTH; i++) {
                                exception(out, i, "m", true);
                            }
                        });

        assertThatThrownBy(() -> ServerExceptionInfo.read(Bytes.in(bytes), 54460))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("nested deeper than");
    }
}
