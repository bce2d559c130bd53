package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns an HTTP error response into a {@link ServerException}: the code from {@code
 * X-ClickHouse-Exception-Code} (or from the body's {@code Code: N.}), the message from the body.
 */
final class HttpErrors {
    private static final Pattern CODE =
            Pattern.compile("Code: (\\d+)[.,]?\\s*(.*)", Pattern.DOTALL);
    private static final Pattern STACK = Pattern.compile(",?\\s*Stack trace:.*", Pattern.DOTALL);

    /** Where exception text starts; ISO-8859-1 keeps byte offsets equal to char offsets. */
    private static final Pattern TEXT_START = Pattern.compile("Code: \\d+[.,] ");

    /**
     * Newer servers frame an exception written after the headers: {@code __exception__}, a tag
     * line, the text, a {@code <length> <tag>} line, {@code __exception__} again.
     */
    private static final Pattern TAGGED_TRAILER =
            Pattern.compile("\\s*\\n\\d+ \\S+\\r?\\n__exception__\\s*$");

    private static final String MARKER = "__exception__";

    private HttpErrors() {}

    /**
     * The exception a server appended to a 200 response after it had started streaming the result,
     * found in the last bytes of the body; null when there is none.
     */
    static ServerException fromBodyTail(byte[] tail, String context) {
        String latin = new String(tail, StandardCharsets.ISO_8859_1);
        int from = -1;
        // The opening marker of a tagged exception: searched for before the closing one at the end.
        int marker = latin.lastIndexOf(MARKER, latin.length() - MARKER.length() - 3);
        int searchFrom = marker >= 0 ? marker : 0;
        Matcher m = TEXT_START.matcher(latin);
        if (m.find(searchFrom)) {
            from = m.start();
            // older servers: the last "Code: N," in the tail is the appended one
            while (marker < 0 && m.find()) {
                from = m.start();
            }
        }
        if (from < 0) {
            return null;
        }
        String text = latin.substring(from);
        text = TAGGED_TRAILER.matcher(text).replaceFirst("");
        text = new String(text.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        return parse(200, null, text.strip(), context + ", after the response had started");
    }

    static ServerException parse(int status, String codeHeader, String body, String context) {
        int code = -1;
        String message = body;
        Matcher m = CODE.matcher(body);
        if (m.find()) {
            code = Integer.parseInt(m.group(1));
            message = m.group(2);
        }
        if (codeHeader != null) {
            try {
                code = Integer.parseInt(codeHeader.trim());
            } catch (NumberFormatException ignored) {
                // keep the body's code
            }
        }
        message = STACK.matcher(message).replaceFirst("");
        // "e.displayText() = DB::Exception: ..." in older servers
        message = message.replaceFirst("^e\\.displayText\\(\\) = ", "");
        String name = "DB::Exception";
        if (message.startsWith("DB::Exception: ")) {
            message = message.substring("DB::Exception: ".length());
        }
        message = message.replaceFirst(",? e\\.what\\(\\) = DB::Exception.*$", "").strip();
        boolean auth = status == 401 || status == 403;
        if (message.isEmpty()) {
            // A proxy may answer with the status alone: it is all there is to say.
            message =
                    auth
                            ? "authentication failed: wrong user name or password (HTTP "
                                    + status
                                    + ")"
                            : "HTTP status " + status + " with an empty body";
        } else if (auth) {
            message = "authentication failed: " + message;
        }
        return new ServerException(
                new ServerExceptionInfo(code, name, message, "", null),
                context + " (HTTP " + status + ")");
    }
}
