package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ServerException.Kind;
import dev.sluice.clickhouse.protocol.ServerExceptionInfo;
import org.junit.jupiter.api.Test;

/** The explicit lists of what a server error means for sending the same INSERT again. */
class ServerExceptionKindTest {

    private static ServerException error(int code, String message) {
        return new ServerException(
                new ServerExceptionInfo(
                        code, "DB::Exception", "DB::Exception: " + message, "", null),
                "INSERT INTO db.t");
    }

    @Test
    void theRequestItselfBeingWrongIsPermanent() {
        int[] codes = {
            ServerException.UNKNOWN_TABLE,
            ServerException.UNKNOWN_DATABASE,
            ServerException.NO_SUCH_COLUMN_IN_TABLE,
            8, // THERE_IS_NO_COLUMN
            ServerException.TYPE_MISMATCH,
            ServerException.SYNTAX_ERROR,
            ServerException.UNKNOWN_SETTING,
            ServerException.READONLY,
            497, // ACCESS_DENIED
            ServerException.AUTHENTICATION_FAILED,
            ServerException.WRONG_PASSWORD,
            ServerException.UNKNOWN_USER,
            291, // DATABASE_ACCESS_DENIED
            44 // ILLEGAL_COLUMN
        };
        for (int code : codes) {
            assertThat(ServerException.kindOf(code, "x"))
                    .as("code " + code)
                    .isEqualTo(Kind.PERMANENT);
            assertThat(error(code, "x").isRetryable()).as("code " + code).isFalse();
        }
    }

    @Test
    void valuesTheServerRefusesAreContent() {
        // Seen from 18.16 on a Native INSERT: 6 toUInt32 of a bad string in a MATERIALIZED column,
        // 395 throwIf in one, 190 Nested arrays of different sizes, 38/41 toDate/toDateTime,
        // 131 toFixedString too long, 69 range() too long, 153 division by zero.
        for (int code : new int[] {6, 395, 190, 38, 41, 131, 69, 153, 349, 407, 469}) {
            assertThat(ServerException.kindOf(code, "x"))
                    .as("code " + code)
                    .isEqualTo(Kind.CONTENT);
        }
        assertThat(error(395, "Value passed to 'throwIf' function is non zero").kind())
                .isEqualTo(Kind.CONTENT);
    }

    @Test
    void limitsABlockExceedsAreSize() {
        for (int code : new int[] {ServerException.MEMORY_LIMIT_EXCEEDED, 173, 158, 307, 396}) {
            assertThat(ServerException.kindOf(code, "x")).as("code " + code).isEqualTo(Kind.SIZE);
        }
        assertThat(
                        ServerException.kindOf(
                                ServerException.TOO_MANY_PARTS,
                                "Too many partitions for single INSERT block (more than 100). The"
                                        + " limit is controlled by 'max_partitions_per_insert_block'"))
                .isEqualTo(Kind.SIZE);
        assertThat(
                        error(
                                        ServerException.MEMORY_LIMIT_EXCEEDED,
                                        "Memory limit (for query) exceeded: would use 19.08 MiB"
                                                + " (attempt to allocate chunk of 1048576 bytes),"
                                                + " maximum: 19.07 MiB")
                                .kind())
                .isEqualTo(Kind.SIZE);
    }

    @Test
    void aMemoryLimitSharedWithOtherQueriesPassesWithTimeNotBySplitting() {
        // The limit of all queries, or of the user's: what holds the memory is not this block.
        for (String limit : new String[] {"(total)", "(for user)"}) {
            ServerException e =
                    error(
                            ServerException.MEMORY_LIMIT_EXCEEDED,
                            "Memory limit "
                                    + limit
                                    + " exceeded: would use 9.31 GiB (attempt to allocate chunk"
                                    + " of 4194304 bytes), maximum: 9.31 GiB");
            assertThat(e.kind()).as(limit).isEqualTo(Kind.TRANSIENT);
            assertThat(e.isRetryable()).as(limit).isTrue();
        }
    }

    @Test
    void everythingElsePassesWithTime() {
        // too many parts (merges behind), read-only replica, timeouts, network, overload,
        // ZooKeeper,
        // a code on no list (a newer server's), a logical error (18.16 raises one for a bad enum)
        for (int code : new int[] {252, 242, 159, 209, 210, 202, 999, 3, 49, 4242, -1}) {
            assertThat(ServerException.kindOf(code, "x"))
                    .as("code " + code)
                    .isEqualTo(Kind.TRANSIENT);
        }
        assertThat(error(252, "Too many parts (300)").isRetryable()).isTrue();
        assertThat(ServerException.kindOf(252, null)).isEqualTo(Kind.TRANSIENT);
    }
}
