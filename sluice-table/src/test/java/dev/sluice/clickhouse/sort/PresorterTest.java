package dev.sluice.clickhouse.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The pre-sorter against a plain Java oracle: a stable sort of the rows by the server's comparison
 * (numbers by value, UInt64 unsigned, strings as unsigned bytes, NaN last and -0 = 0, NULL last).
 * The order against the server itself is checked by {@code PresortIT}.
 */
class PresorterTest {
    private static final String COLUMNS =
            "u64 UInt64, i32 Int32, s String, f Float64, n Nullable(Int16), d Date, seq UInt32";

    static TableSchema table(String orderBy) {
        List<TableSchema.Column> cols = new ArrayList<>();
        for (String def : COLUMNS.split(",\\s*")) {
            String[] p = def.split(" ", 2);
            cols.add(
                    new TableSchema.Column(
                            p[0], p[1], TypeParser.parse(p[1]), TableSchema.DefaultKind.NONE, ""));
        }
        return new TableSchema("db", "t", cols, "MergeTree", orderBy, "");
    }

    static Block rows(Random rnd, int n) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (String def : COLUMNS.split(",\\s*")) {
            String[] p = def.split(" ", 2);
            names.add(p[0]);
            types.add(p[1]);
        }
        Block b = Block.forHeader(names, types);
        long[] u64 = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 7};
        String[] s = {"", "a", "ab", "b", "\u00ff", "é", "a\u0000"};
        double[] f = {0.0, -0.0, Double.NaN, -1, 1, Double.NEGATIVE_INFINITY};
        for (int r = 0; r < n; r++) {
            b.column(0).appendUnsignedLong(u64[rnd.nextInt(u64.length)]);
            b.column(1).appendLong(rnd.nextInt(7) - 3);
            b.column(2).appendString(s[rnd.nextInt(s.length)]);
            b.column(3).appendDouble(f[rnd.nextInt(f.length)]);
            if (rnd.nextInt(4) == 0) {
                b.column(4).appendNull();
            } else {
                b.column(4).appendLong(rnd.nextInt(5) - 2);
            }
            b.column(5).appendLong(rnd.nextInt(3));
            b.column(6).appendLong(r);
        }
        return b;
    }

    /** A stable oracle sort of row numbers by the listed columns. */
    static int[] oracle(Block b, String... columns) {
        Integer[] idx = new Integer[b.rows()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Comparator<Integer> cmp = (x, y) -> 0;
        for (String c : columns) {
            Column col = b.column(c);
            cmp = cmp.thenComparing((x, y) -> compareValues(col, x, y));
        }
        Arrays.sort(idx, cmp); // Arrays.sort on objects is stable
        return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
    }

    private static int compareValues(Column c, int x, int y) {
        boolean nx = c.isNull(x);
        boolean ny = c.isNull(y);
        if (nx || ny) {
            return Boolean.compare(nx, ny); // NULL last
        }
        Object a = c.getObject(x);
        Object b = c.getObject(y);
        return switch (a) {
            case String s ->
                    Arrays.compareUnsigned(
                            s.getBytes(StandardCharsets.UTF_8),
                            ((String) b).getBytes(StandardCharsets.UTF_8));
            case Double d -> {
                double e = (Double) b;
                yield Double.isNaN(d) || Double.isNaN(e)
                        ? Boolean.compare(Double.isNaN(d), Double.isNaN(e))
                        : Double.compare(d + 0.0, e + 0.0);
            }
            case java.math.BigInteger big ->
                    big.compareTo(new java.math.BigInteger(c.getString(y)));
            default ->
                    new java.math.BigInteger(c.getString(x))
                            .compareTo(new java.math.BigInteger(c.getString(y)));
        };
    }

    private static int[] seqs(Block b) {
        int[] out = new int[b.rows()];
        for (int r = 0; r < out.length; r++) {
            out[r] = (int) b.column("seq").getLong(r);
        }
        return out;
    }

    @Property(tries = 30)
    void ordersRowsAsTheServerComparesThem(
            @ForAll @IntRange(min = 0, max = 3000) int n, @ForAll long seed) {
        for (String[] key :
                new String[][] {
                    {"u64"}, {"i32", "d"}, {"s", "i32"}, {"f"}, {"n", "s"}, {"d", "u64", "s"}
                }) {
            Block b = rows(new Random(seed), n);
            Presorter p = Presorter.of(table(String.join(", ", key)), names(b), ZoneOffset.UTC);
            assertThat(p.supported()).isTrue();
            Block sorted = p.sort(b, Presorter.emptyLike(b), 0);
            assertThat(seqs(sorted)).as(String.join(",", key)).isEqualTo(oracle(b, key));
        }
    }

    @Test
    void sortedInputIsReturnedAsIs() {
        Block b = rows(new Random(1), 1000);
        Presorter p = Presorter.of(table("seq"), names(b), ZoneOffset.UTC);
        Block spare = Presorter.emptyLike(b);
        assertThat(p.sort(b, spare, 0)).isSameAs(b);
        assertThat(p.lastOutcome()).isEqualTo(Presorter.Outcome.ALREADY_SORTED);
        assertThat(p.permutation(b, 0)).isNull();
        assertThat(spare.rows()).isZero();
    }

    @Test
    void packedAndComparatorSortsAgree() {
        // (i32, d) packs into one long and takes the radix path; adding s forces the merge sort.
        Block b = rows(new Random(5), 5000);
        Presorter radix = Presorter.of(table("i32, d"), names(b), ZoneOffset.UTC);
        Presorter merge = Presorter.of(table("i32, d, s"), names(b), ZoneOffset.UTC);
        int[] r = radix.permutation(b, 0).clone();
        int[] m = merge.permutation(b, 0);
        int[] byRadix = new int[b.rows()];
        for (int i = 0; i < byRadix.length; i++) {
            byRadix[i] = r[i];
        }
        assertThat(byRadix).isEqualTo(oracle(b, "i32", "d"));
        assertThat(Arrays.copyOf(m, b.rows())).isEqualTo(oracle(b, "i32", "d", "s"));
    }

    @Test
    void functionKeysAndUnsupportedKeys() {
        Block b = rows(new Random(9), 500);
        Presorter hashed = Presorter.of(table("intHash32(i32), -seq"), names(b), ZoneOffset.UTC);
        assertThat(hashed.supported()).isTrue();
        Block sorted = hashed.sort(b, Presorter.emptyLike(b), 0);
        assertThat(sorted.rows()).isEqualTo(500);

        Presorter unsupported = Presorter.of(table("reverse(s)"), names(b), ZoneOffset.UTC);
        assertThat(unsupported.supported()).isFalse();
        assertThat(unsupported.unsupportedReason()).contains("reverse(s)").contains("reverse");
        assertThat(unsupported.sort(b, Presorter.emptyLike(b), 0)).isSameAs(b);
        assertThat(unsupported.lastOutcome()).isEqualTo(Presorter.Outcome.KEY_UNSUPPORTED);

        assertThat(Presorter.of(table(""), names(b), ZoneOffset.UTC).unsupportedReason())
                .contains("no sorting key");
        assertThat(Presorter.of(table("now() - seq"), names(b), ZoneOffset.UTC).unsupportedReason())
                .contains("clock");
    }

    @Test
    void keysMayUseDefaultColumnsTheInsertOmits() {
        List<TableSchema.Column> cols = new ArrayList<>(table("").columns());
        cols.add(
                new TableSchema.Column(
                        "bucket",
                        "UInt8",
                        TypeParser.parse("UInt8"),
                        TableSchema.DefaultKind.DEFAULT,
                        "i32 % 3"));
        TableSchema t = new TableSchema("db", "t", cols, "MergeTree", "bucket, seq", "");
        Block b = rows(new Random(2), 300);
        Presorter p = Presorter.of(t, names(b), ZoneOffset.UTC);
        assertThat(p.supported()).as(p.unsupportedReason()).isTrue();
        Block sorted = p.sort(b, Presorter.emptyLike(b), 0);
        long previous = Long.MIN_VALUE;
        for (int r = 0; r < sorted.rows(); r++) {
            long bucket = (byte) (sorted.column("i32").getLong(r) % 3) & 0xFF;
            assertThat(bucket).isGreaterThanOrEqualTo(previous);
            previous = bucket;
        }
    }

    static List<String> names(Block b) {
        List<String> n = new ArrayList<>();
        for (Column c : b.columns()) {
            n.add(c.name());
        }
        return n;
    }
}
