package dev.sluice.pipeline.decode.json;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a column's value is in a JSON record, as configured in {@code fields}: a JSON pointer
 * ({@code /user/id}, {@code /tags/0}, RFC 6901 with {@code ~0} and {@code ~1}), a dotted path
 * ({@code user.id}), or {@code $}: the whole record as text.
 */
public final class JsonPath {
    public static final String RECORD = "$";

    private JsonPath() {}

    /** The path's segments; empty for {@link #RECORD}. */
    public static List<String> parse(String spec) {
        if (spec.equals(RECORD)) {
            return List.of();
        }
        List<String> segments = new ArrayList<>();
        if (spec.startsWith("/")) {
            for (String s : spec.substring(1).split("/", -1)) {
                segments.add(s.replace("~1", "/").replace("~0", "~"));
            }
        } else {
            for (String s : spec.split("\\.", -1)) {
                if (s.isEmpty()) {
                    throw new IllegalArgumentException(
                            "'" + spec + "' is not a JSON path (an empty segment)");
                }
                segments.add(s);
            }
        }
        return segments;
    }

    /** True when a segment may also index an array (RFC 6901: digits, no leading zero). */
    static boolean isIndex(String segment) {
        if (segment.isEmpty() || segment.length() > 9) {
            return false;
        }
        if (segment.length() > 1 && segment.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            if (segment.charAt(i) < '0' || segment.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
