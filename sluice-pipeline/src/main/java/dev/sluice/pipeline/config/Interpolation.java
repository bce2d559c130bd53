package dev.sluice.pipeline.config;

import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Environment variables in configuration values: {@code ${NAME}} is the variable's value (an error
 * when it is not set), {@code ${NAME:-default}} the default when it is unset or empty, and {@code
 * $$} a literal {@code $}. A {@code $} before anything else is itself. Substituted text is not
 * interpreted again.
 */
final class Interpolation {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private Interpolation() {}

    /**
     * @throws IllegalArgumentException a variable is unset with no default, or malformed
     */
    static String apply(String text, Function<String, String> env) {
        int dollar = text.indexOf('$');
        if (dollar < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, dollar);
        int i = dollar;
        while (i < text.length()) {
            char c = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (c == '$' && next == '$') {
                out.append('$');
                i += 2;
            } else if (c == '$' && next == '{') {
                int close = text.indexOf('}', i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("'${' without its closing '}'");
                }
                out.append(variable(text.substring(i + 2, close), env));
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String variable(String inner, Function<String, String> env) {
        int dash = inner.indexOf(":-");
        String name = dash < 0 ? inner : inner.substring(0, dash);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "'${" + inner + "}' is not ${NAME} or ${NAME:-default}");
        }
        String value = env.apply(name);
        if (dash >= 0) {
            String fallback = inner.substring(dash + 2);
            if (fallback.contains("${")) {
                throw new IllegalArgumentException(
                        "a default cannot hold another variable: '${" + inner + "}'");
            }
            return value == null || value.isEmpty() ? fallback : value;
        }
        if (value == null) {
            throw new IllegalArgumentException(
                    "environment variable "
                            + name
                            + " is not set (give a default with ${"
                            + name
                            + ":-value})");
        }
        return value;
    }
}
