package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.client.ServerException;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
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

    private HttpErrors() {}

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
        if (message.isEmpty()) {
            // A 401 answer to a streamed request reaches us without its body (the JDK client
            // drops it): the status is all there is to say.
            message =
                    status == 401 || status == 403
                            ? "authentication failed: wrong user name or password (HTTP "
                                    + status
                                    + ")"
                            : "HTTP status " + status + " with an empty body";
        }
        return new ServerException(
                new ServerExceptionInfo(code, name, message, "", null),
                context + " (HTTP " + status + ")");
    }
}
