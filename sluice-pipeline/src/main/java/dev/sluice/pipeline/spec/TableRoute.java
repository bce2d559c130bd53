package dev.sluice.pipeline.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which table a record goes to ({@code sink.clickhouse.table} and {@code sink.clickhouse.tables}):
 * one table for every record; or a template naming it from the record's topic, {@code
 * db.events_{topic}}; and a map of topics to tables that overrides both. A table is a function of
 * the topic alone, so every record of a partition goes to the same table (its batches, tokens and
 * replays stay those of one partition).
 *
 * <p>A topic substituted into a template may hold characters an identifier cannot ({@code .} and
 * {@code -} are common in topic names): the name part that results is quoted with backticks then,
 * so {@code db.events_{topic}} of topic {@code web.clicks} is {@code db.`events_web.clicks`}.
 */
public final class TableRoute {
    /** The one placeholder a template may hold. */
    public static final String TOPIC = "{topic}";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final String table;
    private final Map<String, String> tables;
    private final String database;
    private final String name;

    private TableRoute(String table, Map<String, String> tables) {
        this.table = table;
        this.tables = tables;
        if (table != null && table.contains(TOPIC)) {
            int dot = table.indexOf('.');
            int placeholder = table.indexOf(TOPIC);
            if (dot >= 0 && dot < placeholder) {
                this.database = table.substring(0, dot);
                this.name = table.substring(dot + 1);
            } else {
                this.database = null;
                this.name = table;
            }
        } else {
            this.database = null;
            this.name = null;
        }
    }

    /**
     * The route of {@code table} (a table, a template, or null when {@code tables} names every
     * table) and {@code tables} (topic → table).
     *
     * @throws IllegalArgumentException naming what is wrong: a placeholder other than {@code
     *     {topic}}, a brace without its pair, a template whose database part holds the placeholder,
     *     a blank table, neither a table nor a map
     */
    public static TableRoute of(String table, Map<String, String> tables) {
        Map<String, String> map = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        if (table == null && map.isEmpty()) {
            throw new IllegalArgumentException("needs a table (or a map of topics to tables)");
        }
        if (table != null) {
            check(table, "table", true);
        }
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (e.getKey().isBlank()) {
                throw new IllegalArgumentException("tables: a topic is blank");
            }
            check(e.getValue(), "tables." + e.getKey(), false);
        }
        return new TableRoute(table, map);
    }

    private static void check(String table, String key, boolean templateAllowed) {
        if (table.isBlank()) {
            throw new IllegalArgumentException(key + " is blank");
        }
        int at = 0;
        while (true) {
            int open = table.indexOf('{', at);
            int close = table.indexOf('}', at);
            if (open < 0 && close < 0) {
                break;
            }
            if (open < 0 || (close >= 0 && close < open)) {
                throw new IllegalArgumentException(
                        key + " '" + table + "': a '}' without its '{' at " + close);
            }
            if (close < 0) {
                throw new IllegalArgumentException(
                        key + " '" + table + "': a '{' without its '}' at " + open);
            }
            String placeholder = table.substring(open, close + 1);
            if (!placeholder.equals(TOPIC)) {
                throw new IllegalArgumentException(
                        key
                                + " '"
                                + table
                                + "': unknown placeholder "
                                + placeholder
                                + " (the one placeholder is {topic}, the record's topic)");
            }
            if (!templateAllowed) {
                throw new IllegalArgumentException(
                        key + " '" + table + "': a mapped table is a table, not a template");
            }
            at = close + 1;
        }
        if (templateAllowed && table.contains(TOPIC)) {
            int dot = table.indexOf('.');
            if (dot >= 0 && dot > table.indexOf(TOPIC)) {
                throw new IllegalArgumentException(
                        key
                                + " '"
                                + table
                                + "': {topic} may name the table, not its database (the database"
                                + " comes before the first '.')");
            }
        }
    }

    /** True when every record goes to the same table: no template, no map. */
    public boolean single() {
        return name == null && tables.isEmpty();
    }

    /** True when the table depends on the record's topic (a template or a map). */
    public boolean byTopic() {
        return !single();
    }

    /** True when {@code table} is a template with {@code {topic}}. */
    public boolean template() {
        return name != null;
    }

    /** The table of every record when {@link #single()}, else null. */
    public String fixed() {
        return single() ? table : null;
    }

    /**
     * The table of a record of {@code topic}: the mapped one, else the template's (the name part
     * quoted when the topic makes it no plain identifier), else the fixed table.
     *
     * @param topic the record's topic; null for records of a source without topics
     * @throws IllegalArgumentException when no table fits: a template or map with a record of no
     *     topic, or a topic the map lacks and no table or template to fall back on
     */
    public String table(String topic) {
        if (topic != null) {
            String mapped = tables.get(topic);
            if (mapped != null) {
                return mapped;
            }
        }
        if (name != null) {
            if (topic == null || topic.isEmpty()) {
                throw new IllegalArgumentException(
                        "table '" + table + "' names tables by topic, and the record has none");
            }
            String n = quote(name.replace(TOPIC, topic));
            return database == null ? n : database + "." + n;
        }
        if (table == null) {
            throw new IllegalArgumentException(
                    "no table for topic "
                            + (topic == null ? "(none)" : "'" + topic + "'")
                            + ": sink.clickhouse.tables does not map it and sink.clickhouse.table"
                            + " is not set");
        }
        return table;
    }

    /** The tables known before any record arrives: the map's and the fixed table, in order. */
    public List<String> knownTables() {
        Set<String> out = new LinkedHashSet<>();
        if (table != null && name == null) {
            out.add(table);
        }
        out.addAll(tables.values());
        return new ArrayList<>(out);
    }

    /** The route as configured, for messages: {@code db.events_{topic}, clicks → web.clicks}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (table != null) {
            parts.add(table);
        }
        tables.forEach((topic, t) -> parts.add(topic + " → " + t));
        return String.join(", ", parts);
    }

    /** {@code name} as it is, or in backticks when it is no plain identifier. */
    static String quote(String name) {
        if (IDENTIFIER.matcher(name).matches()
                || (name.length() >= 2 && name.startsWith("`") && name.endsWith("`"))) {
            return name;
        }
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    @Override
    public String toString() {
        return describe();
    }
}
