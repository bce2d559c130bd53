package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import java.util.ArrayList;
import java.util.List;

/**
 * An error reported by the server (Exception packet), as plain data; the connection layer turns it
 * into a Java exception.
 *
 * <pre>
 * Int32 code | String name | String message | String stack_trace | UInt8 has_nested
 * | [has_nested: the same again for the nested exception]
 * </pre>
 *
 * Same layout at every revision. Current servers always write has_nested = 0 and fold the cause
 * into the message; old ones chain.
 *
 * @param name the C++ class, e.g. {@code DB::Exception}
 * @param message starts with the class name on most servers ({@code "DB::Exception: ..."})
 * @param nested null for none
 */
public record ServerExceptionInfo(
        int code, String name, String message, String stackTrace, ServerExceptionInfo nested) {

    /** Nesting deeper than this is treated as corrupt input. */
    static final int MAX_DEPTH = 128;

    /** Reads the body after the packet code. */
    public static ServerExceptionInfo read(WireInput in, int revision) {
        List<ServerExceptionInfo> chain = new ArrayList<>();
        boolean hasNested;
        do {
            if (chain.size() == MAX_DEPTH) {
                throw new WireException(
                        "server exception nested deeper than " + MAX_DEPTH + " levels");
            }
            int code = in.readInt32();
            String name = in.readString();
            String message = in.readString();
            String stackTrace = in.readString();
            hasNested = in.readBoolean();
            chain.add(new ServerExceptionInfo(code, name, message, stackTrace, null));
        } while (hasNested);
        // Link from the innermost outwards.
        ServerExceptionInfo result = null;
        for (int i = chain.size() - 1; i >= 0; i--) {
            ServerExceptionInfo e = chain.get(i);
            result = new ServerExceptionInfo(e.code, e.name, e.message, e.stackTrace, result);
        }
        return result;
    }

    /** {@code Code: 60. DB::Exception: ...}, with nested messages; no stack traces. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (ServerExceptionInfo e = this; e != null; e = e.nested) {
            if (e != this) {
                sb.append("; caused by ");
            }
            sb.append("Code: ").append(e.code).append(". ");
            if (!e.message.startsWith(e.name)) {
                sb.append(e.name).append(": ");
            }
            sb.append(e.message);
        }
        return sb.toString();
    }
}
