package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import java.util.List;
import java.util.Set;

/**
 * An error the server reported: its code (e.g. 60 UNKNOWN_TABLE), name, message and nested cause.
 * The server's stack trace is kept in {@link #serverStackTrace()}, not in the message.
 *
 * <p>{@link #kind()} says what sending the same request again can do, from explicit lists of codes
 * (ClickHouse's {@code src/Common/ErrorCodes.cpp}; codes are stable across versions): {@link
 * Kind#PERMANENT} — the request itself is wrong and fails again unchanged (unknown table or column,
 * type mismatch, syntax, settings, authentication, access, read-only user, protocol); {@link
 * Kind#CONTENT} — some values of the data are refused (a DEFAULT or MATERIALIZED expression that
 * cannot parse or throws, a Nested structure with arrays of different sizes, a value out of range,
 * a violated constraint), so the same rows fail again but others pass; {@link Kind#SIZE} — the
 * block is too big for a limit (memory, rows or bytes per query), so smaller blocks pass; {@link
 * Kind#TRANSIENT} — everything else: it may pass later (network, timeouts, overload, too many
 * parts, shutdown, replica state, a memory limit shared with other queries, and codes not on any
 * list).
 */
public class ServerException extends ClickHouseException {

    /** What sending the same request again can do. */
    public enum Kind {
        /** Fails again unchanged, whatever the data: fix the table, query, settings or user. */
        PERMANENT,
        /** Values of the data are refused: the same rows fail again, other rows pass. */
        CONTENT,
        /** The block is too big for a server limit: smaller blocks pass. */
        SIZE,
        /** May pass when sent again later. */
        TRANSIENT
    }

    /** The request itself is wrong: it fails again unchanged. */
    private static final Set<Integer> PERMANENT_CODES =
            Set.of(
                    1, // UNSUPPORTED_METHOD (e.g. INSERT into a View)
                    2, // UNSUPPORTED_PARAMETER
                    7, // INCORRECT_NUMBER_OF_COLUMNS
                    8, // THERE_IS_NO_COLUMN
                    9, // SIZES_OF_COLUMNS_DOESNT_MATCH (a malformed block)
                    10, // NOT_FOUND_COLUMN_IN_BLOCK
                    15, // DUPLICATE_COLUMN
                    16, // NO_SUCH_COLUMN_IN_TABLE
                    20, // NUMBER_OF_COLUMNS_DOESNT_MATCH
                    43, // ILLEGAL_TYPE_OF_ARGUMENT (an expression's types, not its values)
                    44, // ILLEGAL_COLUMN
                    46, // UNKNOWN_FUNCTION
                    47, // UNKNOWN_IDENTIFIER
                    48, // NOT_IMPLEMENTED
                    50, // UNKNOWN_TYPE
                    53, // TYPE_MISMATCH
                    56, // UNKNOWN_STORAGE
                    60, // UNKNOWN_TABLE
                    62, // SYNTAX_ERROR
                    73, // UNKNOWN_FORMAT
                    80, // INCORRECT_QUERY
                    81, // UNKNOWN_DATABASE
                    99, // UNKNOWN_PACKET_FROM_CLIENT
                    101, // UNEXPECTED_PACKET_FROM_CLIENT
                    108, // NO_DATA_TO_INSERT
                    115, // UNKNOWN_SETTING
                    116, // THERE_IS_NO_DEFAULT_VALUE
                    122, // INCOMPATIBLE_COLUMNS
                    164, // READONLY (the user's readonly setting; a read-only replica is 242)
                    169, // BAD_TYPE_OF_FIELD (a setting's value)
                    192, // UNKNOWN_USER
                    193, // WRONG_PASSWORD
                    194, // REQUIRED_PASSWORD
                    195, // IP_ADDRESS_NOT_ALLOWED
                    197, // SERVER_REVISION_IS_TOO_OLD
                    217, // CLIENT_HAS_CONNECTED_TO_WRONG_PORT
                    261, // UNKNOWN_BLOCK_INFO_FIELD
                    291, // DATABASE_ACCESS_DENIED
                    344, // SUPPORT_IS_DISABLED
                    386, // NO_COMMON_TYPE
                    392, // QUERY_IS_PROHIBITED
                    452, // SETTING_CONSTRAINT_VIOLATION
                    471, // INVALID_SETTING_VALUE
                    472, // READONLY_SETTING
                    497, // ACCESS_DENIED
                    516 // AUTHENTICATION_FAILED
                    );

    /**
     * Values of the block are refused. On 18.16 a Native INSERT meets these through expressions the
     * server computes per row — DEFAULT and MATERIALIZED columns, materialized views — and Nested
     * arrays of different sizes; parse errors come from such expressions too (Native carries no
     * text). Newer servers add CHECK constraints (469).
     */
    private static final Set<Integer> CONTENT_CODES =
            Set.of(
                    6, // CANNOT_PARSE_TEXT (toUInt32(s) of a bad string)
                    25, // CANNOT_PARSE_ESCAPE_SEQUENCE
                    26, // CANNOT_PARSE_QUOTED_STRING
                    27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
                    38, // CANNOT_PARSE_DATE
                    41, // CANNOT_PARSE_DATETIME
                    69, // ARGUMENT_OUT_OF_BOUND
                    70, // CANNOT_CONVERT_TYPE
                    72, // CANNOT_PARSE_NUMBER
                    128, // TOO_LARGE_ARRAY_SIZE (one value's array, e.g. range(n))
                    130, // CANNOT_READ_ARRAY_FROM_TEXT
                    131, // TOO_LARGE_STRING_SIZE (one value, e.g. toFixedString)
                    153, // ILLEGAL_DIVISION (division by zero)
                    190, // SIZES_OF_ARRAYS_DOESNT_MATCH (Nested arrays of different sizes)
                    321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
                    349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN (a NULL a view computes)
                    376, // CANNOT_PARSE_UUID
                    395, // FUNCTION_THROW_IF_VALUE_IS_NON_ZERO (throwIf)
                    407, // DECIMAL_OVERFLOW
                    441, // CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING
                    467, // CANNOT_PARSE_BOOL
                    469 // VIOLATED_CONSTRAINT (19.x+)
                    );

    /** The block is too big for a limit; smaller blocks pass. */
    private static final Set<Integer> SIZE_CODES =
            Set.of(
                    158, // TOO_MANY_ROWS
                    173, // CANNOT_ALLOCATE_MEMORY
                    241, // MEMORY_LIMIT_EXCEEDED
                    307, // TOO_MANY_BYTES
                    396 // TOO_MANY_ROWS_OR_BYTES
                    );

    /**
     * TOO_MANY_PARTS also says "Too many partitions for single INSERT block" (servers with {@code
     * max_partitions_per_insert_block}): fewer rows per block pass.
     */
    private static final String TOO_MANY_PARTITIONS = "Too many partitions for single INSERT block";

    /**
     * MEMORY_LIMIT_EXCEEDED names whose limit it is: {@code (for query)} is this INSERT's, which
     * smaller blocks pass; {@code (for user)} and {@code (total)} are shared with other queries, so
     * the memory they hold is what passes with time — splitting down to single rows would refuse
     * good rows as too large.
     */
    private static final List<String> SHARED_MEMORY_LIMITS =
            List.of("Memory limit (total)", "Memory limit (for user)");

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

    /** What sending the same request again can do (see the class comment). */
    public Kind kind() {
        return kindOf(code, serverMessage);
    }

    /** The kind of an error with {@code code} and the server's {@code message}. */
    public static Kind kindOf(int code, String message) {
        if (PERMANENT_CODES.contains(code)) {
            return Kind.PERMANENT;
        }
        if (CONTENT_CODES.contains(code)) {
            return Kind.CONTENT;
        }
        if (code == MEMORY_LIMIT_EXCEEDED
                && message != null
                && SHARED_MEMORY_LIMITS.stream().anyMatch(message::contains)) {
            return Kind.TRANSIENT;
        }
        if (SIZE_CODES.contains(code)
                || (code == TOO_MANY_PARTS
                        && message != null
                        && message.contains(TOO_MANY_PARTITIONS))) {
            return Kind.SIZE;
        }
        return Kind.TRANSIENT;
    }

    /**
     * True when the same request may succeed later: {@link Kind#TRANSIENT}. Content and size errors
     * fail again unchanged, though smaller or other blocks may pass.
     */
    public boolean isRetryable() {
        return kind() == Kind.TRANSIENT;
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
    public static final int READONLY = 164;
    public static final int QUOTA_EXPIRED = 201;
    public static final int TOO_MANY_SIMULTANEOUS_QUERIES = 202;
    public static final int MEMORY_LIMIT_EXCEEDED = 241;
    public static final int TABLE_IS_READ_ONLY = 242;
    public static final int TOO_MANY_PARTS = 252;
}
