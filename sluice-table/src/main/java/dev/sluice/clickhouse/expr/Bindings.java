package dev.sluice.clickhouse.expr;

import dev.sluice.clickhouse.types.ClickHouseType;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

/**
 * What the names in an expression stand for: block columns with their types, and aliases (names
 * computed by another expression, inlined where they are used, as the server does with the DEFAULT
 * expressions of columns it fills). Also the server's time zone, for {@code DateTime} without one,
 * {@code today()} and Date text.
 */
public final class Bindings {
    private final ZoneId serverZone;
    private final Map<String, ClickHouseType> columns = new HashMap<>();
    private final Map<String, Expr> aliases = new HashMap<>();
    private boolean rawRecord;

    public Bindings(ZoneId serverZone) {
        this.serverZone = serverZone;
    }

    /** The zone a server reports in its Hello ({@code ServerInfo.timezone()}); UTC when none. */
    public static ZoneId zone(String serverTimezone) {
        return ZoneId.of(
                serverTimezone == null || serverTimezone.isEmpty() ? "UTC" : serverTimezone);
    }

    /** A column of the blocks the expression is evaluated over. */
    public Bindings column(String name, ClickHouseType type) {
        columns.put(name, type);
        return this;
    }

    /**
     * {@code name} is computed by {@code expression}; when {@code name} is also a {@link #column},
     * the value is converted to that column's type.
     */
    public Bindings alias(String name, Expr expression) {
        aliases.put(name, expression);
        return this;
    }

    /**
     * Enables {@code raw()}: the bytes of the record each row was decoded from, as a String, which
     * the caller passes to {@link CompiledExpression#evaluate(dev.sluice.clickhouse.block.Block,
     * int[], int, long, RawRecords)}. Not a ClickHouse function: a pipeline's binding.
     */
    public Bindings rawRecord() {
        rawRecord = true;
        return this;
    }

    boolean hasRawRecord() {
        return rawRecord;
    }

    public ZoneId serverZone() {
        return serverZone;
    }

    ClickHouseType columnType(String name) {
        return columns.get(name);
    }

    Expr alias(String name) {
        return aliases.get(name);
    }
}
