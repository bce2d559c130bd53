package dev.sluice.pipeline.decode.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.pipeline.decode.DecodeFixture;
import dev.sluice.pipeline.decode.DecodeFixture.Rows;
import dev.sluice.pipeline.decode.DecoderFactory;
import dev.sluice.pipeline.decode.TargetColumns;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The JSON fast path against Jackson alone: the same records, generated and damaged, decoded by a
 * decoder with the fast path and one without give the same column contents (compared value by value
 * and as their Native bytes), the same absent fields and the same error messages; and the fast path
 * reads every well-formed record of the plain shapes itself, so that the comparison is not between
 * Jackson and Jackson.
 */
class JsonFastPathPropertyTest {
    private static final String COLUMNS =
            "i Int32, u UInt8, f Float64, d Decimal(9, 2), s String, n Nullable(Int64),"
                    + " a Array(Nullable(String)), t Tuple(UInt8, String), m Map(String, UInt8),"
                    + " lc LowCardinality(String), dt DateTime, e Enum8('a' = 1, 'b' = 2),"
                    + " o String, x Int32, tag String, uid UInt64, raw String";

    /** Keys at the top level: the columns' own, the paths' first segments, and others. */
    private static final String[] KEYS = {
        "i",
        "u",
        "f",
        "d",
        "s",
        "n",
        "a",
        "t",
        "m",
        "lc",
        "dt",
        "e",
        "o",
        "x",
        "tag",
        "uid",
        "raw",
        "obj",
        "tags",
        "user",
        "extra",
        "é",
        "with space",
        "dropme"
    };

    /** The three mappings: top-level keys by name; paths and the whole record; and a drop. */
    private static DecodeSpec spec(int mapping, boolean ignoreUnknown, boolean fast) {
        Map<String, String> fields =
                switch (mapping) {
                    case 0 -> Map.of();
                    default ->
                            Map.of(
                                    "raw", "$",
                                    "o", "/obj",
                                    "x", "/obj/x",
                                    "tag", "/tags/1",
                                    "uid", "user.id");
                };
        return DecodeFixture.spec(Format.JSON, List.of(), false, fields, ignoreUnknown)
                .withJsonFastPath(fast);
    }

    private static final class Outcome {
        final Rows rows;
        final JsonDecoder decoder;

        Outcome(Rows rows, JsonDecoder decoder) {
            this.rows = rows;
            this.decoder = decoder;
        }
    }

    private static Outcome decode(int mapping, boolean ignoreUnknown, boolean fast, byte[][] recs) {
        DecodeSpec spec = spec(mapping, ignoreUnknown, fast);
        var table = DecodeFixture.table(COLUMNS);
        TargetColumns target = DecoderFactory.targetColumns(spec, List.of(), table);
        JsonDecoder d = (JsonDecoder) DecoderFactory.create(spec, target);
        assertThat(d.fastPath()).isEqualTo(fast);
        PolledRecords batch = DecodeFixture.batch(recs);
        return new Outcome(new Rows(target).decode(d, batch), d);
    }

    /** Decodes {@code recs} both ways and checks that the outcomes are the same. */
    private static Outcome same(int mapping, boolean ignoreUnknown, byte[][] recs) {
        Outcome fast = decode(mapping, ignoreUnknown, true, recs);
        Outcome jackson = decode(mapping, ignoreUnknown, false, recs);
        String shown = show(recs);
        assertThat(fast.rows.errors).as(shown).isEqualTo(jackson.rows.errors);
        Block a = fast.rows.block;
        Block b = jackson.rows.block;
        assertThat(a.rows()).as(shown).isEqualTo(b.rows());
        for (int c = 0; c < a.columnCount(); c++) {
            for (int r = 0; r < a.rows(); r++) {
                assertThat(a.column(c).getObject(r))
                        .as("column %s row %d of %s", a.column(c).name(), r, shown)
                        .isEqualTo(b.column(c).getObject(r));
            }
            if (!a.column(c).type().typeName().startsWith("LowCardinality")) {
                // A rolled-back row may leave its value in a LowCardinality dictionary, unused
                // (on either path, for any rejected record): the rows are equal, the bytes not.
                assertThat(nativeBytes(a, c)).as(shown).isEqualTo(nativeBytes(b, c));
            }
        }
        assertThat(fast.rows.absent).as(shown).isEqualTo(jackson.rows.absent);
        long framed = Arrays.stream(recs).filter(r -> !jsonBlank(r)).count();
        assertThat(fast.decoder.fastRecords() + fast.decoder.declinedRecords())
                .as("every record but the empty ones is tried on the fast path")
                .isEqualTo(framed);
        return fast;
    }

    private static boolean jsonBlank(byte[] r) {
        for (byte c : r) {
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return false;
            }
        }
        return true;
    }

    private static byte[] nativeBytes(Block block, int column) {
        WireOutput out = new WireOutput(256);
        block.column(column).writePrefix(out);
        block.column(column).writeData(out);
        return out.toByteArray();
    }

    private static String show(byte[][] recs) {
        StringBuilder sb = new StringBuilder();
        for (byte[] r : recs) {
            sb.append('\n').append(new String(r, StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    @Property(tries = 1500)
    void generatedAndDamagedRecordsDecodeAlikeBothWays(
            @ForAll long seed, @ForAll boolean ignoreUnknown, @ForAll boolean paths) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Gen gen = new Gen(rnd, false);
        byte[][] recs = new byte[1 + rnd.nextInt(6)][];
        for (int i = 0; i < recs.length; i++) {
            byte[] rec = gen.record();
            recs[i] = rnd.nextInt(3) == 0 ? damage(rnd, rec) : rec;
        }
        same(paths ? 1 : 0, ignoreUnknown, recs);
    }

    @Property(tries = 700)
    void theFastPathReadsEveryPlainRecordThatDecodes(
            @ForAll long seed, @ForAll boolean ignoreUnknown, @ForAll boolean paths) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Gen gen = new Gen(rnd, true);
        byte[][] recs = new byte[1 + rnd.nextInt(6)][];
        for (int i = 0; i < recs.length; i++) {
            recs[i] = gen.record();
        }
        Outcome fast = same(paths ? 1 : 0, ignoreUnknown, recs);
        // Declined records are exactly the rejected ones: every accepted one was read fast.
        assertThat(fast.decoder.declinedRecords())
                .as(show(recs))
                .isEqualTo(fast.rows.errors.size());
        assertThat(fast.decoder.fastRecords()).isEqualTo(fast.rows.block.rows());
    }

    /** Records on the edges of the grammar, each decoded both ways. */
    @Example
    void edgesOfTheGrammarDecodeAlike() {
        String[] records = {
            "{}",
            " \t{\"i\":1}",
            "{\"i\":1}x",
            "{\"i\":1} {\"i\":2}",
            "{\"i\":01}",
            "{\"i\":-}",
            "{\"i\":1.}",
            "{\"f\":.5}",
            "{\"f\":+1}",
            "{\"f\":1e}",
            "{\"f\":-0.0e+00}",
            "{\"f\":1E5}",
            "{\"f\":NaN}",
            "{\"f\":-Infinity}",
            "{\"s\":\"\\u00e9\\ud83e\\udd80\\n\\/\\\"\"}",
            "{\"s\":\"\\ud800\"}",
            "{\"s\":\"\\udc00x\"}",
            "{\"s\":\"\\ud800\\u0041\"}",
            "{\"s\":\"\\x\"}",
            "{\"s\":\"a\tb\"}",
            "{\"s\":\"unterminated}",
            "{\"i\":1,}",
            "{\"i\":1,\"i\":2}",
            "{\"\\u0069\":1}",
            "{\"n\":null,\"i\":null,\"a\":[null,\"x\"],\"m\":{\"k\":null}}",
            "{\"i\":true}",
            "{\"i\":nul}",
            "{\"i\":nullx}",
            "{\"t\":[1]}",
            "{\"t\":[1,\"a\",2]}",
            "{\"t\":[1,\"a\"]}",
            "{\"m\":{\"k\\\"\":1,\"é\":2}}",
            "{\"a\":[]}",
            "{\"m\":{}}",
            "{\"unknown\":{\"deep\":[1,{\"x\":[]}]}}",
            "{\"s\":\"" + "\u20ac".repeat(10) + "\"}",
            "{\"s\":" + "[".repeat(300) + "]".repeat(300) + "}",
            "{\"extra\":" + "[".repeat(300) + "]".repeat(300) + "}",
            "[1]",
            "\"text\"",
            "{\"i\":1",
            "{\"i\"",
            "{\"i\":\"1\"}",
            "{\"u\":300}",
        };
        for (String rec : records) {
            byte[][] recs = {rec.getBytes(StandardCharsets.UTF_8)};
            for (int mapping = 0; mapping < 2; mapping++) {
                same(mapping, mapping == 1, recs);
                same(mapping, false, recs);
            }
        }
        byte[][] bad = {
            {'{', '"', 's', '"', ':', '"', (byte) 0xC3, '"', '}'}, // cut sequence
            {'{', '"', 's', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'}, // overlong
            {'{', '"', 's', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'},
            {
                '{',
                '"',
                's',
                '"',
                ':',
                '"',
                (byte) 0xF4,
                (byte) 0x90,
                (byte) 0x80,
                (byte) 0x80,
                '"',
                '}'
            },
            {'{', '"', 's', '"', ':', '"', (byte) 0xFF, '"', '}'},
            {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'},
            {(byte) 0xEF, '?', '{', '}'}, // not a BOM: on a fresh Jackson parser or a used one
        };
        for (byte[] seq : utf8Edges()) {
            // in a column's string, a skipped string, a key
            same(0, false, new byte[][] {record("{\"s\":\"a", seq, "b\"}")});
            same(1, true, new byte[][] {record("{\"zz\":[\"a", seq, "b\"]}")});
            same(0, true, new byte[][] {record("{\"a", seq, "\":1}")});
        }
        for (byte[] rec : bad) {
            same(0, false, new byte[][] {rec});
            same(1, true, new byte[][] {rec});
            // after a record the fast path read, Jackson's parser for it is fresh on one side only
            same(0, false, new byte[][] {"{}".getBytes(StandardCharsets.UTF_8), rec});
        }
    }

    /** Byte sequences on either side of strict UTF-8's edges. */
    private static List<byte[]> utf8Edges() {
        int[][] seqs = {
            {0xC1, 0xBF},
            {0xC2, 0x80},
            {0xDF, 0xBF},
            {0xE0, 0x80, 0x80},
            {0xE0, 0x9F, 0xBF},
            {0xE0, 0xA0, 0x80},
            {0xED, 0x9F, 0xBF},
            {0xED, 0xA0, 0x80},
            {0xED, 0xBF, 0xBF},
            {0xEE, 0x80, 0x80},
            {0xEF, 0xBF, 0xBF},
            {0xF0, 0x80, 0x80, 0x80},
            {0xF0, 0x8F, 0xBF, 0xBF},
            {0xF0, 0x90, 0x80, 0x80},
            {0xF4, 0x8F, 0xBF, 0xBF},
            {0xF4, 0x90, 0x80, 0x80},
            {0xF5, 0x80, 0x80, 0x80},
            {0xF8, 0x88, 0x80, 0x80, 0x80},
            {0xC2, 0x41},
            {0xE2, 0x82},
            {0xE2, 0x82, 0x41},
            {0xF0, 0x9F, 0xA6},
            {0x80},
            {0xBF},
            {0xFE},
            {0x7F},
            {0x1F},
            {0x00}
        };
        List<byte[]> out = new ArrayList<>();
        for (int[] q : seqs) {
            byte[] b = new byte[q.length];
            for (int i = 0; i < q.length; i++) {
                b[i] = (byte) q[i];
            }
            out.add(b);
        }
        return out;
    }

    private static byte[] record(String before, byte[] middle, String after) {
        byte[] a = before.getBytes(StandardCharsets.UTF_8);
        byte[] c = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[a.length + middle.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(middle, 0, out, a.length, middle.length);
        System.arraycopy(c, 0, out, a.length + middle.length, c.length);
        return out;
    }

    /** Cuts, inserts, overwrites or deletes bytes, or puts a token Jackson treats specially. */
    private static byte[] damage(SplittableRandom rnd, byte[] rec) {
        int at = rnd.nextInt(rec.length + 1);
        byte[] noise;
        if (rnd.nextBoolean()) {
            noise = new byte[1 + rnd.nextInt(4)];
            for (int i = 0; i < noise.length; i++) {
                noise[i] = (byte) rnd.nextInt(256);
            }
        } else {
            String[] tokens = {
                "NaN", "-Infinity", "01", "1.", "+1", ".5", "truex", "nul", "\\u", "\\ud800", "\"",
                ",", "}", "]", "{", "[", ":", "\\", "\t", "\u0001", "é", "\ud83e\udd80"
            };
            noise = tokens[rnd.nextInt(tokens.length)].getBytes(StandardCharsets.UTF_8);
        }
        int remove =
                switch (rnd.nextInt(4)) {
                    case 0 -> rec.length - at; // cut (and maybe append)
                    case 1 -> 0; // insert
                    case 2 -> Math.min(noise.length, rec.length - at); // overwrite
                    default -> Math.min(1 + rnd.nextInt(3), rec.length - at); // delete
                };
        byte[] out = new byte[rec.length - remove + noise.length];
        System.arraycopy(rec, 0, out, 0, at);
        System.arraycopy(noise, 0, out, at, noise.length);
        System.arraycopy(rec, at + remove, out, at + noise.length, rec.length - at - remove);
        return out;
    }

    /** Random JSON records of the table's shapes; plain ones use nothing the fast path declines. */
    private static final class Gen {
        final SplittableRandom rnd;
        final boolean plain;
        final StringBuilder sb = new StringBuilder();

        Gen(SplittableRandom rnd, boolean plain) {
            this.rnd = rnd;
            this.plain = plain;
        }

        byte[] record() {
            sb.setLength(0);
            space();
            sb.append('{');
            int members = rnd.nextInt(9);
            List<String> keys = new ArrayList<>(Arrays.asList(KEYS));
            for (int k = 0; k < members; k++) {
                if (k > 0) {
                    sb.append(',');
                }
                space();
                String key;
                if (rnd.nextInt(10) < 8) {
                    // mostly distinct keys; now and then a duplicate
                    key =
                            keys.isEmpty() || rnd.nextInt(20) == 0
                                    ? KEYS[rnd.nextInt(KEYS.length)]
                                    : keys.remove(rnd.nextInt(keys.size()));
                    string(key, false);
                } else {
                    key = "";
                    randomString();
                }
                space();
                sb.append(':');
                space();
                if (rnd.nextInt(10) < 7) {
                    fitting(key);
                } else {
                    value(0);
                }
                space();
            }
            sb.append('}');
            if (rnd.nextInt(4) == 0) {
                space();
            }
            return sb.toString().getBytes(StandardCharsets.UTF_8);
        }

        void space() {
            while (rnd.nextInt(5) == 0) {
                sb.append(" \t\r\n".charAt(rnd.nextInt(4)));
            }
        }

        /** A value the column under {@code key} can usually take. */
        void fitting(String key) {
            switch (key) {
                case "i", "x" -> number(rnd.nextInt(5) == 0 ? rnd.nextLong() : rnd.nextInt(1000));
                case "u" -> sb.append(rnd.nextInt(300));
                case "f" -> floating();
                case "d" -> sb.append(rnd.nextInt(-9999, 9999)).append('.').append(rnd.nextInt(99));
                case "n" -> {
                    if (rnd.nextBoolean()) {
                        sb.append("null");
                    } else {
                        number(rnd.nextLong());
                    }
                }
                case "a", "tags" -> {
                    sb.append('[');
                    int n = rnd.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        sb.append(i == 0 ? "" : ",");
                        space();
                        if (rnd.nextInt(4) == 0) {
                            sb.append("null");
                        } else {
                            randomString();
                        }
                    }
                    sb.append(']');
                }
                case "t" -> {
                    sb.append('[').append(rnd.nextInt(256)).append(',');
                    randomString();
                    sb.append(']');
                }
                case "m" -> {
                    sb.append('{');
                    int n = rnd.nextInt(3);
                    for (int i = 0; i < n; i++) {
                        sb.append(i == 0 ? "" : ",");
                        randomString();
                        sb.append(':').append(rnd.nextInt(256));
                    }
                    sb.append('}');
                }
                case "dt" -> {
                    if (rnd.nextBoolean()) {
                        sb.append(1_700_000_000 + rnd.nextInt(1_000_000));
                    } else {
                        sb.append("\"2024-01-0").append(1 + rnd.nextInt(9)).append(" 12:00:00\"");
                    }
                }
                case "e" -> sb.append(rnd.nextBoolean() ? "\"a\"" : "2");
                case "obj" -> {
                    sb.append("{\"x\":").append(rnd.nextInt(100));
                    if (rnd.nextBoolean()) {
                        sb.append(",\"y\":");
                        value(1);
                    }
                    sb.append('}');
                }
                case "user" -> sb.append("{\"id\":").append(rnd.nextInt(1 << 30)).append('}');
                default -> randomString();
            }
        }

        void number(long v) {
            sb.append(v);
        }

        void floating() {
            switch (rnd.nextInt(5)) {
                case 0 -> sb.append(rnd.nextDouble() * 1000);
                case 1 -> sb.append(rnd.nextInt(100)).append("e").append(rnd.nextInt(-5, 5));
                case 2 -> sb.append("-0.").append(rnd.nextInt(1000)).append("E+2");
                case 3 -> sb.append('-').append(rnd.nextInt(10));
                default -> sb.append(rnd.nextInt(1000));
            }
        }

        /** Any JSON value. */
        void value(int depth) {
            int kind = rnd.nextInt(depth > 3 ? 6 : 8);
            switch (kind) {
                case 0 -> randomString();
                case 1 -> number(rnd.nextLong());
                case 2 -> floating();
                case 3 -> sb.append("true");
                case 4 -> sb.append("false");
                case 5 -> sb.append("null");
                case 6 -> {
                    sb.append('[');
                    int n = rnd.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        sb.append(i == 0 ? "" : ",");
                        space();
                        value(depth + 1);
                    }
                    sb.append(']');
                }
                default -> {
                    sb.append('{');
                    int n = rnd.nextInt(4);
                    for (int i = 0; i < n; i++) {
                        sb.append(i == 0 ? "" : ",");
                        randomString();
                        sb.append(':');
                        space();
                        value(depth + 1);
                    }
                    sb.append('}');
                }
            }
        }

        /** A string of ASCII, other scripts, emoji and escapes. */
        void randomString() {
            StringBuilder s = new StringBuilder();
            int n = rnd.nextInt(12);
            for (int i = 0; i < n; i++) {
                switch (rnd.nextInt(10)) {
                    case 0 -> s.append("éß中€".charAt(rnd.nextInt(4)));
                    case 1 -> s.append("\ud83e\udd80");
                    default -> s.append((char) rnd.nextInt(0x20, 0x7F));
                }
            }
            string(s.toString(), true);
        }

        /** {@code s} as a JSON string, escaped where it must be and now and then where not. */
        void string(String s, boolean mayEscape) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (Character.isHighSurrogate(c)) {
                    char low = s.charAt(++i); // the strings have pairs only
                    if (mayEscape && rnd.nextBoolean()) {
                        sb.append(String.format("\\u%04x\\u%04X", (int) c, (int) low));
                    } else {
                        sb.append(c).append(low);
                    }
                } else if (mayEscape && rnd.nextInt(12) == 0) {
                    switch (rnd.nextInt(3)) {
                        case 0 -> sb.append(String.format("\\u%04x", (int) c));
                        case 1 -> sb.append(String.format("\\u%04X", (int) c));
                        default -> sb.append(c == '/' ? "\\/" : c == '\n' ? "\\n" : "" + c);
                    }
                } else {
                    sb.append(c);
                }
            }
            if (mayEscape && rnd.nextInt(8) == 0) {
                sb.append("\\n\\t\\b\\f\\r\\/");
            }
            if (!plain && rnd.nextInt(40) == 0) {
                sb.append("\\ud800"); // a lone surrogate: Jackson's
            }
            sb.append('"');
        }
    }
}
