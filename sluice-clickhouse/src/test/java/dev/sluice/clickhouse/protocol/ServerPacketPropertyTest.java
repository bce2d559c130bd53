package dev.sluice.clickhouse.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.io.WireInput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class ServerPacketPropertyTest {

    /** ClickHouse's writeAnyEscapedString: control escapes, backslash and the quote character. */
    private static String escape(String s, char quote) {
        StringBuilder sb = new StringBuilder();
        s.codePoints()
                .forEach(
                        c -> {
                            switch (c) {
                                case '\b' -> sb.append("\\b");
                                case '\f' -> sb.append("\\f");
                                case '\n' -> sb.append("\\n");
                                case '\r' -> sb.append("\\r");
                                case '\t' -> sb.append("\\t");
                                case 0 -> sb.append("\\0");
                                case '\\' -> sb.append("\\\\");
                                default -> {
                                    if (c == quote) {
                                        sb.append('\\');
                                    }
                                    sb.appendCodePoint(c);
                                }
                            }
                        });
        return sb.toString();
    }

    @Property
    void columnNamesAndCommentsSurviveServerEscaping(
            @ForAll String anyName, @ForAll String anyComment, @ForAll boolean form18) {
        // Text from the wire is decoded UTF-8: it never holds an unpaired surrogate.
        String name = wellFormed(anyName);
        String comment = wellFormed(anyComment);
        // Newer servers write "COMMENT <literal>", 18.16 the bare literal; both escape the clause.
        String literal = "'" + escape(comment, '\'') + "'";
        String clause = form18 ? literal : "COMMENT " + literal;
        String text =
                "columns format version: 1\n1 columns:\n`"
                        + escape(name, '`')
                        + "` String"
                        + (comment.isEmpty() ? "" : (form18 ? "\t\t" : "\t") + escape(clause, '\''))
                        + "\n";

        assertThat(ColumnsDescriptionParser.parse(text))
                .containsExactly(
                        new ColumnDescription(
                                name,
                                "String",
                                ColumnDescription.DefaultKind.NONE,
                                "",
                                comment,
                                List.of()));
    }

    private static String wellFormed(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    @Property
    void progressReadsBackWhatEachRevisionCarries(
            @ForAll @LongRange(min = 0) long a,
            @ForAll @LongRange(min = 0) long b,
            @ForAll @LongRange(min = 0) long c,
            @ForAll @IntRange(min = 54400, max = 54470) int revision) {
        boolean totalBytes = revision >= 54463;
        boolean written = revision >= 54420;
        boolean elapsed = revision >= 54460;
        byte[] bytes =
                Bytes.written(
                        out -> {
                            out.writeVarUInt(a).writeVarUInt(b).writeVarUInt(c);
                            if (totalBytes) {
                                out.writeVarUInt(c + 1);
                            }
                            if (written) {
                                out.writeVarUInt(b).writeVarUInt(a);
                            }
                            if (elapsed) {
                                out.writeVarUInt(c);
                            }
                        });
        WireInput in = Bytes.in(bytes);

        assertThat(Progress.read(in, revision))
                .isEqualTo(
                        new Progress(
                                a,
                                b,
                                c,
                                totalBytes ? c + 1 : 0,
                                written ? b : 0,
                                written ? a : 0,
                                elapsed ? c : 0));
        assertThat(in.atEnd()).isTrue();
    }
}
