package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import java.util.Set;

/**
 * An error the server reported: its code (e.g. 60 UNKNOWN_TABLE), name, message and nested cause.
 * The server's stack trace is kept in {@link #serverStackTrace()}, not in the message.
 */
public class ServerException extends ClickHouseException {
    /**
     * Codes for conditions that pass: network trouble on the server's side, timeouts, overload,
     * memory limits, too many parts, shutdown, replica readiness. Others (unknown table or column,
     * type mismatch, syntax, authentication) will fail again unchanged.
     */
    private static final Set<Integer> RETRYABLE_CODES =
            Set.of(
                    3, // UNEXPECTED_END_OF_FILE
                    159, // TIMEOUT_EXCEEDED
                    160, // TOO_SLOW
                    164, // READONLY (replica in readonly mode, e.g. ZooKeeper session lost)
                    202, // TOO_MANY_SIMULTANEOUS_QUERIES
                    203, // NO_FREE_CONNECTION
                    209, // SOCKET_TIMEOUT
                    210, // NETWORK_ERROR
                    241, // MEMORY_LIMIT_EXCEEDED
                    242, // TABLE_IS_READ_ONLY
                    252, // TOO_MANY_PARTS
                    285, // TOO_FEW_LIVE_REPLICAS
                    319, // UNKNOWN_STATUS_OF_INSERT
                    425, // SYSTEM_ERROR
                    439, // CANNOT_SCHEDULE_TASK
                    999, // KEEPER_EXCEPTION
                    1000 // POCO_EXCEPTION
                    );

    private final int code;
    private final String name;
    private final String serverMessage;
    private final String serverStackTrace;

    public ServerException(ServerExceptionInfo info, String context) {
        super(
                describe(info, context),
                info.nested() == null ? null : new ServerException(info.nested(), null));
        this.code = info.code();
        this.name = info.name();
        this.serverMessage = info.message();
        this.serverStackTrace = info.stackTrace();
    }

    private static String describe(ServerExceptionInfo info, String context) {
        String msg = info.message();
        // The server prefixes its own exception class name; keep the message readable.
        if (msg.startsWith(info.name() + ": ")) {
            msg = msg.substring(info.name().length() + 2);
        }
        return (context == null ? "" : context + ": ")
                + "ClickHouse error "
                + info.code()
                + (info.name().isEmpty() || info.name().equals("DB::Exception")
                        ? ""
                        : " (" + info.name() + ")")
                + ": "
                + msg;
    }

    public int code() {
        return code;
    }

    /** The server-side exception class, e.g. {@code DB::Exception}. */
    public String name() {
        return name;
    }

    public String serverMessage() {
        return serverMessage;
    }

    public String serverStackTrace() {
        return serverStackTrace;
    }

    /** True when the same request may succeed later (see the list of codes). */
    public boolean isRetryable() {
        return RETRYABLE_CODES.contains(code);
    }

    /** Well-known codes tests and callers branch on. */
    public static final int UNKNOWN_TABLE = 60;

    public static final int UNKNOWN_DATABASE = 81;
    public static final int NO_SUCH_COLUMN_IN_TABLE = 16;
    public static final int UNKNOWN_IDENTIFIER = 47;
    public static final int TYPE_MISMATCH = 53;
    public static final int UNKNOWN_SETTING = 115;
    public static final int AUTHENTICATION_FAILED = 516;
    public static final int WRONG_PASSWORD = 193;
    public static final int UNKNOWN_USER = 192;
    public static final int SYNTAX_ERROR = 62;
}
