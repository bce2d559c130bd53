package dev.sluice.pipeline.decode.convert;

/** ClickHouse's backslash escapes, shared by TSV fields and quoted strings. */
public final class Escapes {
    private Escapes() {}

    /**
     * The byte that {@code \c} stands for: {@code \b \f \n \r \t \0 \a \v}, and any other character
     * for itself ({@code \\ \' \"} included). {@code \xHH} is handled by the callers.
     */
    public static byte unescape(byte c) {
        return switch (c) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case '0' -> 0;
            case 'a' -> 7;
            case 'v' -> 11;
            default -> c;
        };
    }
}
