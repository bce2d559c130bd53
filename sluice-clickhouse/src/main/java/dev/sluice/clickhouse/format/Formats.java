package dev.sluice.clickhouse.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The input formats Sluice can write, by ClickHouse name. Lookups ignore case and know the server's
 * aliases (TSV for TabSeparated, JSONLines and NDJSON for JSONEachRow); the format returned always
 * carries the canonical name, which every server version understands.
 */
public final class Formats {
    public static final RowFormat ROW_BINARY = new RowBinaryFormat("RowBinary", false);

    /** ClickHouse 19.3+. */
    public static final RowFormat ROW_BINARY_WITH_NAMES_AND_TYPES =
            new RowBinaryFormat("RowBinaryWithNamesAndTypes", true);

    public static final TextFormat TAB_SEPARATED =
            new TextFormat("TabSeparated", TextFormat.Kind.TSV, false, false, false);
    public static final TextFormat TAB_SEPARATED_WITH_NAMES =
            new TextFormat("TabSeparatedWithNames", TextFormat.Kind.TSV, true, false, false);
    public static final TextFormat TAB_SEPARATED_WITH_NAMES_AND_TYPES =
            new TextFormat("TabSeparatedWithNamesAndTypes", TextFormat.Kind.TSV, true, true, false);
    public static final TextFormat CSV =
            new TextFormat("CSV", TextFormat.Kind.CSV, false, false, false);
    public static final TextFormat CSV_WITH_NAMES =
            new TextFormat("CSVWithNames", TextFormat.Kind.CSV, true, false, false);
    public static final TextFormat VALUES =
            new TextFormat("Values", TextFormat.Kind.VALUES, false, false, false);

    /**
     * 64-bit integers quoted, as the server writes them; see {@link
     * TextFormat#withQuoted64BitIntegers}.
     */
    public static final TextFormat JSON_EACH_ROW =
            new TextFormat("JSONEachRow", TextFormat.Kind.JSON_EACH_ROW, false, false, true);

    /** ClickHouse 20.1+. 64-bit integers quoted, as for {@link #JSON_EACH_ROW}. */
    public static final TextFormat JSON_COMPACT_EACH_ROW =
            new TextFormat(
                    "JSONCompactEachRow",
                    TextFormat.Kind.JSON_COMPACT_EACH_ROW,
                    false,
                    false,
                    true);

    private static final Map<String, InputFormat> BY_NAME = new LinkedHashMap<>();
    private static final List<InputFormat> ALL;

    static {
        List<InputFormat> all =
                List.of(
                        InputFormat.NATIVE,
                        ROW_BINARY,
                        ROW_BINARY_WITH_NAMES_AND_TYPES,
                        TAB_SEPARATED,
                        TAB_SEPARATED_WITH_NAMES,
                        TAB_SEPARATED_WITH_NAMES_AND_TYPES,
                        CSV,
                        CSV_WITH_NAMES,
                        VALUES,
                        JSON_EACH_ROW,
                        JSON_COMPACT_EACH_ROW);
        for (InputFormat f : all) {
            BY_NAME.put(key(f.clickHouseName()), f);
        }
        BY_NAME.put(key("TSV"), TAB_SEPARATED);
        BY_NAME.put(key("TSVWithNames"), TAB_SEPARATED_WITH_NAMES);
        BY_NAME.put(key("TSVWithNamesAndTypes"), TAB_SEPARATED_WITH_NAMES_AND_TYPES);
        BY_NAME.put(key("JSONLines"), JSON_EACH_ROW);
        BY_NAME.put(key("NDJSON"), JSON_EACH_ROW);
        ALL = all;
    }

    private Formats() {}

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Every format, Native first. */
    public static List<InputFormat> all() {
        return ALL;
    }

    /** The format called {@code name} (any case, or an alias), if Sluice has it. */
    public static Optional<InputFormat> find(String name) {
        return Optional.ofNullable(BY_NAME.get(key(name.strip())));
    }

    /**
     * The format called {@code name} (any case, or an alias).
     *
     * @throws IllegalArgumentException naming the formats there are
     */
    public static InputFormat byName(String name) {
        return find(name)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "unknown input format '"
                                                + name
                                                + "'; Sluice writes "
                                                + String.join(", ", names())));
    }

    /** The canonical names, Native first. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (InputFormat f : ALL) {
            out.add(f.clickHouseName());
        }
        return out;
    }

    /**
     * Which of our formats a server of version {@code major.minor} reads, for when it cannot be
     * asked ({@code system.formats} missing or not readable by the user). From the release notes:
     * RowBinaryWithNamesAndTypes came with 19.3, JSONCompactEachRow with 20.1; the rest were in
     * every version we speak to.
     */
    public static Set<String> inputFormatsOf(int major, int minor) {
        Set<String> out = new TreeSet<>();
        for (InputFormat f : ALL) {
            out.add(f.clickHouseName());
        }
        out.add("TSV");
        out.add("TSVWithNames");
        out.add("TSVWithNamesAndTypes");
        if (major < 19 || major == 19 && minor < 3) {
            out.remove(ROW_BINARY_WITH_NAMES_AND_TYPES.clickHouseName());
        }
        if (major < 20) {
            out.remove(JSON_COMPACT_EACH_ROW.clickHouseName());
        }
        return Collections.unmodifiableSet(out);
    }
}
