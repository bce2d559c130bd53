package dev.sluice.clickhouse.sort;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.expr.ExprParser;
import dev.sluice.clickhouse.expr.UnsupportedExpressionException;
import dev.sluice.clickhouse.expr.ValueType;
import dev.sluice.clickhouse.expr.ValueVector;
import dev.sluice.clickhouse.schema.TableSchema;
import java.time.ZoneId;
import java.util.List;

/**
 * Which shard each row of a block goes to, as a {@code Distributed} table with this sharding key
 * and these shard weights would send it: the key's integer value, taken as an unsigned number of 32
 * bits (types up to 32 bits, signed ones sign-extended) or 64 bits, modulo the total weight, picks
 * a slot; shard {@code i} owns {@code weight[i]} consecutive slots, in shard order.
 *
 * <p>The key is evaluated columnar, with the server's functions ({@code intHash32}, {@code
 * cityHash64}, arithmetic, ...: the expression engine of sluice-table), over the columns the insert
 * sends, and columns the table computes (DEFAULT, MATERIALIZED) from their expressions — as the
 * server computes them before a Distributed table picks the shard.
 */
public final class ShardKey {
    private final KeyColumns key;
    private final int[] slots;
    private final boolean wide;
    private final String expression;

    private ShardKey(KeyColumns key, int[] slots, boolean wide, String expression) {
        this.key = key;
        this.slots = slots;
        this.wide = wide;
        this.expression = expression;
    }

    /**
     * @param weights the shards' weights, in shard order (each ≥ 1)
     * @throws UnsupportedExpressionException when the expression cannot be computed here or is not
     *     an integer (the message names why)
     */
    public static ShardKey of(
            String expression,
            TableSchema table,
            List<String> blockColumns,
            ZoneId serverZone,
            List<Integer> weights)
            throws UnsupportedExpressionException {
        KeyColumns key =
                KeyColumns.of(
                        () -> List.of(ExprParser.parse(expression)),
                        table,
                        blockColumns,
                        serverZone);
        ValueType type = key.type(0);
        if (type.kind() != ValueType.Kind.INT || type.nullable()) {
            throw new UnsupportedExpressionException(
                    "the sharding key "
                            + expression
                            + " is "
                            + type.chType()
                            + (type.nullable() ? " (Nullable)" : "")
                            + ": a Distributed table needs an integer");
        }
        int total = 0;
        for (int w : weights) {
            if (w < 1) {
                throw new IllegalArgumentException("shard weight must be ≥ 1, got " + w);
            }
            total += w;
        }
        int[] slots = new int[total];
        int at = 0;
        for (int shard = 0; shard < weights.size(); shard++) {
            for (int i = 0; i < weights.get(shard); i++) {
                slots[at++] = shard;
            }
        }
        return new ShardKey(key, slots, type.bits() > 32, expression);
    }

    /** The shard of every row of {@code block}, into {@code into} (grown when too small). */
    public int[] select(Block block, long nowSeconds, int[] into) {
        key.evaluate(block, nowSeconds);
        ValueVector v = key.part(0);
        int rows = block.rows();
        int[] shards = into.length >= rows ? into : new int[rows];
        long total = slots.length;
        for (int r = 0; r < rows; r++) {
            long value = v.getLong(r);
            long slot =
                    wide ? Long.remainderUnsigned(value, total) : (value & 0xFFFF_FFFFL) % total;
            shards[r] = slots[(int) slot];
        }
        return shards;
    }

    /** The number of shards. */
    public int shards() {
        return slots.length == 0 ? 0 : slots[slots.length - 1] + 1;
    }

    @Override
    public String toString() {
        return expression;
    }
}
