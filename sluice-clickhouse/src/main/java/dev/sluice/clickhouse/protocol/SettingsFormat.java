package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings list of a {@link QueryPacket}, terminated by an empty name. Two encodings:
 *
 * <pre>
 * ≥54429 STRINGS_WITH_FLAGS: per setting  String name | VarUInt flags | String value
 * &lt;54429 BINARY:             per setting  String name | value in its type's binary form
 * then String "" (end of list)
 * </pre>
 *
 * <p>With strings, every setting is flagged important (0x01): a server that does not know the name
 * then fails the query with an error naming it, instead of ignoring it with a log warning.
 *
 * <p>BINARY has no type tag, so the client must know each setting's type or the server reads the
 * rest of the packet out of step. The types come from the table of ClickHouse 18.16.1 (the
 * revision-54412 test server) in {@code binary-settings-18.16.1.tsv}; a name not in it is refused
 * with an {@link IllegalArgumentException} naming it. Servers of revisions 54413–54428 (19.x) know
 * more settings; those are refused too, and can be set with a {@code SET} query on the same
 * connection instead.
 */
final class SettingsFormat {

    /** Flag bit: the server must fail the query if it does not know the setting. */
    static final int FLAG_IMPORTANT = 0x01;

    /** Flag bit: a custom setting, used for query parameters. */
    static final int FLAG_CUSTOM = 0x02;

    private static final String TABLE = "binary-settings-18.16.1.tsv";

    private SettingsFormat() {}

    /**
     * Writes {@code settings} and the terminator. A refused setting throws {@link
     * IllegalArgumentException} with part of the list already written; {@link QueryPacket} writes
     * into a scratch buffer for that reason.
     */
    static void write(WireOutput out, List<QuerySetting> settings, int revision) {
        if (revision >= ProtocolRevision.DBMS_MIN_REVISION_WITH_SETTINGS_SERIALIZED_AS_STRINGS) {
            for (QuerySetting s : settings) {
                out.writeString(s.name());
                out.writeVarUInt(FLAG_IMPORTANT);
                out.writeString(s.value());
            }
        } else {
            for (QuerySetting s : settings) {
                BinarySettingType type = binaryType(s.name(), revision);
                out.writeString(s.name());
                type.write(out, s.name(), s.value());
            }
        }
        out.writeString("");
    }

    /** The binary form of a setting known to 18.16 servers, or an error naming the setting. */
    static BinarySettingType binaryType(String name, int revision) {
        BinarySettingType type = Table.TYPES.get(name);
        if (type == null) {
            throw new IllegalArgumentException(
                    "setting "
                            + name
                            + " is not known to servers speaking revision "
                            + revision
                            + " (binary settings); send it with a SET query instead, or use a"
                            + " server of revision 54429 or newer");
        }
        return type;
    }

    // Loaded on first use: connections to modern servers never need it.
    private static final class Table {
        static final Map<String, BinarySettingType> TYPES = load();

        private static Map<String, BinarySettingType> load() {
            try (InputStream in = SettingsFormat.class.getResourceAsStream(TABLE)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + TABLE + " missing");
                }
                Map<String, BinarySettingType> types = new HashMap<>();
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                for (String line : text.split("\n")) {
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    String[] cols = line.split("\t");
                    if (cols.length != 2 || types.put(cols[0], ofType(cols[1], line)) != null) {
                        throw new IllegalStateException("bad line in " + TABLE + ": " + line);
                    }
                }
                return Map.copyOf(types);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static BinarySettingType ofType(String cppType, String line) {
            try {
                return BinarySettingType.ofClickHouseType(cppType);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("bad line in " + TABLE + ": " + line, e);
            }
        }
    }
}
