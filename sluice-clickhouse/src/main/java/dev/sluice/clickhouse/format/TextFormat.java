package dev.sluice.clickhouse.format;

import dev.sluice.clickhouse.block.Block;

/**
 * The text input formats: TabSeparated (and -WithNames, -WithNamesAndTypes), CSV (and
 * CSVWithNames), Values, JSONEachRow and JSONCompactEachRow. How each value is spelled is described
 * in {@link TextWriters}; the row layout here:
 *
 * <pre>
 * TabSeparated        v1 TAB v2 LF                 header: names, then types, TAB-separated lines
 * CSV                 v1,v2 LF                     header: names as CSV strings
 * Values              (v1,v2),(v1,v2)
 * JSONEachRow         {"c1":v1,"c2":v2} LF
 * JSONCompactEachRow  [v1,v2] LF                   (ClickHouse 20.1+)
 * </pre>
 */
public final class TextFormat extends RowFormat {
    enum Kind {
        TSV,
        CSV,
        VALUES,
        JSON_EACH_ROW,
        JSON_COMPACT_EACH_ROW
    }

    private final Kind kind;
    private final boolean names;
    private final boolean types;
    private final boolean quote64;

    TextFormat(String name, Kind kind, boolean names, boolean types, boolean quote64) {
        super(name);
        this.kind = kind;
        this.names = names;
        this.types = types;
        this.quote64 = quote64;
    }

    Kind kind() {
        return kind;
    }

    boolean withNames() {
        return names;
    }

    boolean withTypes() {
        return types;
    }

    /** True when 64-bit and wider integers are JSON strings ({@code "123"}): JSON formats only. */
    public boolean quotes64BitIntegers() {
        return quote64;
    }

    /**
     * This JSON format with 64-bit and wider integers quoted or bare. The server reads both; quoted
     * (the default, as the server writes them) survives JSON tools that hold numbers as doubles,
     * bare is two bytes shorter.
     *
     * @throws IllegalStateException for a format that is not JSON
     */
    public TextFormat withQuoted64BitIntegers(boolean quoted) {
        if (kind != Kind.JSON_EACH_ROW && kind != Kind.JSON_COMPACT_EACH_ROW) {
            throw new IllegalStateException(clickHouseName() + " has no quoting of integers");
        }
        return quoted == quote64
                ? this
                : new TextFormat(clickHouseName(), kind, names, types, quoted);
    }

    @Override
    public BlockEncoder encoderFor(Block block) {
        return new TextEncoder(this, block);
    }
}
