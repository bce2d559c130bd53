package dev.sluice.clickhouse.protocol;

import java.util.Objects;

/**
 * A value for a {@code {name:Type}} placeholder in the query text (revision 54459 and up), sent
 * like a setting with the custom flag (0x02).
 *
 * <p>The server restores the value as a dumped Field and takes it as a String, then parses that
 * text as the placeholder's type; so the wire value is a single-quoted string literal. {@link #of}
 * builds it from plain text.
 *
 * @param quotedValue the text in single quotes, {@code \} and {@code '} escaped with {@code \}
 */
public record QueryParameter(String name, String quotedValue) {

    public QueryParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(quotedValue, "quotedValue");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("parameter name must not be empty");
        }
    }

    /** A parameter whose value is {@code text} as the server should parse it, e.g. {@code 42}. */
    public static QueryParameter of(String name, String text) {
        StringBuilder sb = new StringBuilder(text.length() + 2).append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' || c == '\'') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return new QueryParameter(name, sb.append('\'').toString());
    }
}
