package dev.sluice.clickhouse.http;

import java.io.InputStream;
import java.util.Map;

/**
 * An HTTP response head and its body.
 *
 * @param headers case-insensitive names; repeated headers joined with ", "
 * @param body the body, ending where the response ends
 * @param keepAliveMillis how long the socket may wait idle for another request; 0 when it must be
 *     closed after this response
 */
record HttpResponse(
        int status, Map<String, String> headers, InputStream body, long keepAliveMillis) {
    String header(String name) {
        return headers.get(name);
    }
}
