package dev.sluice.clickhouse.defaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.schema.TableSchema;
import dev.sluice.clickhouse.types.TypeParser;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The defaults plan, filler and split without a server (their results against the server's are
 * checked by {@code DefaultsIT}).
 */
class DefaultsTest {
    private static final DefaultsOptions LEGACY =
            new DefaultsOptions(DefaultsOptions.References.EXPRESSIONS, false);
    private static final DefaultsOptions CURRENT =
            new DefaultsOptions(DefaultsOptions.References.VALUES_WHEN_SENT, false);

    private static TableSchema.Column col(String name, String type, String kind, String expr) {
        return new TableSchema.Column(
                name, type, TypeParser.parse(type), TableSchema.DefaultKind.parse(kind), expr);
    }

    private static TableSchema table() {
        return new TableSchema(
                "db",
                "t",
                List.of(
                        col("id", "UInt32", "", ""),
                        col("s", "String", "", ""),
                        col("tag", "String", "DEFAULT", "'it\\'s'"),
                        col("shout", "String", "DEFAULT", "upper(tag)"),
                        col("len", "UInt64", "DEFAULT", "length(s)"),
                        col("rev", "String", "DEFAULT", "reverse(s)"),
                        col("at", "DateTime", "DEFAULT", "now()"),
                        col("low", "String", "MATERIALIZED", "lower(s)"),
                        col("n", "Nullable(Int8)", "", "")),
                "MergeTree",
                "id",
                "");
    }

    private static final List<String> SENT = List.of("id", "s", "tag", "shout", "len", "rev", "n");

    @Test
    void decidesPerColumn() {
        DefaultsPlan plan = DefaultsPlan.of(table(), SENT, ZoneOffset.UTC, LEGACY);
        assertThat(plan.decisions())
                .extracting(DefaultsPlan.Decision::action)
                .containsExactly(
                        DefaultsPlan.Action.NONE,
                        DefaultsPlan.Action.NONE,
                        DefaultsPlan.Action.CLIENT,
                        DefaultsPlan.Action.CLIENT,
                        DefaultsPlan.Action.CLIENT,
                        DefaultsPlan.Action.SERVER,
                        DefaultsPlan.Action.NONE);
        assertThat(plan.decision(5).reason()).contains("reverse");
        assertThat(plan.omittedColumns()).containsExactly("at");
        assertThat(plan.anyServerFilled()).isTrue();
        assertThat(plan.toString()).contains("rev DEFAULT reverse(s): by the server");
    }

    @Test
    void newerServersLeaveChainsOverSentColumnsToTheServer() {
        DefaultsPlan plan = DefaultsPlan.of(table(), SENT, ZoneOffset.UTC, CURRENT);
        assertThat(plan.decision(3).action()).isEqualTo(DefaultsPlan.Action.SERVER);
        assertThat(plan.decision(3).reason()).contains("tag");
        assertThat(plan.decision(4).action()).isEqualTo(DefaultsPlan.Action.CLIENT);
    }

    @Test
    void computedColumnsInTheInputAreRefusedUnlessAllowed() {
        List<String> withLow = new ArrayList<>(SENT);
        withLow.add("low");
        assertThatThrownBy(() -> DefaultsPlan.of(table(), withLow, ZoneOffset.UTC, LEGACY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("low (MATERIALIZED lower(s))");
        assertThat(
                        DefaultsPlan.of(
                                        table(),
                                        withLow,
                                        ZoneOffset.UTC,
                                        LEGACY.allowingComputedColumns())
                                .decisions())
                .hasSize(8);
        assertThatThrownBy(() -> DefaultsPlan.of(table(), List.of("nope"), ZoneOffset.UTC, LEGACY))
                .hasMessageContaining("no column nope");
    }

    /** Rows 0..4; tag absent in 1 and 3, shout in 1 and 2, len in 4, rev in 0 and 4. */
    private static Block batch(AbsentRows absent) {
        TableSchema t = table();
        List<String> types = new ArrayList<>();
        for (String n : SENT) {
            types.add(t.column(n).typeName());
        }
        Block b = Block.forHeader(SENT, types);
        String[][] given = {
            {"0", "abc", "t0", "S0", "", "", "1"},
            {"1", "Hello", null, null, "9", "x", null},
            {"2", "", "t2", null, "0", "y", "3"},
            {"3", "日本", null, "S3", "6", "z", "4"},
            {"4", "xy", "t4", "S4", null, null, "5"},
        };
        for (int r = 0; r < given.length; r++) {
            for (int c = 0; c < SENT.size(); c++) {
                String v = given[r][c];
                boolean absentField = v == null && c < 6;
                if (c == 0 || c == 4) {
                    if (v == null || v.isEmpty()) {
                        b.column(c).appendDefault();
                    } else {
                        b.column(c).appendLong(Long.parseLong(v));
                    }
                } else if (c == 6) {
                    if (v == null) {
                        b.column(c).appendNull();
                    } else {
                        b.column(c).appendLong(Long.parseLong(v));
                    }
                } else if (v == null) {
                    b.column(c).appendDefault();
                } else {
                    b.column(c).appendString(v);
                }
                if (absentField || (c == 4 && v == null) || (c == 5 && r == 0)) {
                    absent.markAbsent(c, r);
                }
            }
        }
        return b;
    }

    @Test
    void fillsWhatItComputesAndReportsTheRest() {
        DefaultsPlan plan = DefaultsPlan.of(table(), SENT, ZoneOffset.UTC, LEGACY);
        AbsentRows absent = new AbsentRows(SENT.size());
        Block b = batch(absent);
        List<Integer> left = plan.newFiller().fill(b, absent, 0);

        assertThat(left).containsExactly(5); // rev: reverse() is left to the server
        assertThat(b.rows()).isEqualTo(5);
        assertThat(strings(b, "tag")).containsExactly("t0", "it's", "t2", "it's", "t4");
        // 18.x semantics: shout = upper(tag) reads tag's DEFAULT, even where tag was given.
        assertThat(strings(b, "shout")).containsExactly("S0", "IT'S", "IT'S", "S3", "S4");
        assertThat(b.column("len").getLong(4)).isEqualTo(2);
        assertThat(b.column("len").getLong(1)).isEqualTo(9);
        assertThat(b.column("n").isNull(1)).isTrue(); // no DEFAULT: the placeholder stays

        List<DefaultGroups.Group> groups = DefaultGroups.split(b, absent, left);
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).omitted()).containsExactly("rev");
        assertThat(groups.get(0).block().rows()).isEqualTo(2); // rows 0 and 4: row 0 comes first
        assertThat(groups.get(0).block().indexOf("rev")).isEqualTo(-1);
        assertThat(groups.get(1).omitted()).isEmpty();
        assertThat(groups.get(1).block().rows()).isEqualTo(3);
        assertThat(groups.get(1).block().column("id").getLong(0)).isEqualTo(1);
    }

    @Test
    void absentRowsAreReusable() {
        AbsentRows a = new AbsentRows(2);
        a.markAbsent(1, 200);
        a.markAbsent(1, 200);
        a.markAbsent(1, 3);
        assertThat(a.count(1)).isEqualTo(2);
        assertThat(a.isAbsent(1, 200)).isTrue();
        assertThat(a.isAbsent(1, 4)).isFalse();
        assertThat(a.isAbsent(0, 3)).isFalse();
        int[] rows = new int[8];
        assertThat(a.rows(1, rows)).isEqualTo(2);
        assertThat(rows[0]).isEqualTo(3);
        assertThat(rows[1]).isEqualTo(200);
        a.clear();
        assertThat(a.anyAbsent(1)).isFalse();
        assertThat(a.isAbsent(1, 200)).isFalse();
    }

    private static List<String> strings(Block b, String column) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < b.rows(); r++) {
            out.add(b.column(column).getString(r));
        }
        return out;
    }
}
