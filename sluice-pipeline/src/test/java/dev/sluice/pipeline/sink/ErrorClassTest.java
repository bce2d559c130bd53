package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionException;
import dev.sluice.clickhouse.client.HeaderMismatchException;
import dev.sluice.clickhouse.client.InsertOutcomeUnknownException;
import dev.sluice.clickhouse.client.ProtocolException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class ErrorClassTest {

    @Test
    void networkTroubleIsRetriedOnANewConnection() {
        assertThat(ErrorClass.of(new ConnectionException("reset")))
                .isEqualTo(ErrorClass.CONNECTION);
        assertThat(ErrorClass.of(new UncheckedIOException(new IOException("x"))))
                .isEqualTo(ErrorClass.CONNECTION);
    }

    @Test
    void aConnectionLostAfterTheDataWasSentIsAnInterruptionWhoseOutcomeIsUnknown() {
        InsertOutcomeUnknownException e =
                new InsertOutcomeUnknownException(
                        "tok#n.1", new ConnectionException("INSERT INTO t: no answer"));
        assertThat(ErrorClass.of(e)).isEqualTo(ErrorClass.INTERRUPTED);
        assertThat(ErrorClass.INTERRUPTED.retryable()).isTrue();
        assertThat(ErrorClass.INTERRUPTED.brokeConnection()).isTrue();
        assertThat(ErrorClass.SERVER.brokeConnection()).isFalse();
        assertThat(e.getMessage())
                .isEqualTo(
                        "INSERT INTO t: no answer after the INSERT's data was sent; whether the"
                                + " server wrote it is unknown (query_id tok#n.1)");
    }

    @Test
    void passingServerConditionsAreRetried() {
        // timeout, network, too many parts, read-only replica, overload, ZooKeeper
        for (int code : new int[] {159, 209, 210, 252, 242, 202, 999}) {
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.SERVER);
        }
        assertThat(ErrorClass.SERVER.retryable()).isTrue();
        assertThat(ErrorClass.SERVER.splits()).isFalse();
    }

    @Test
    void aCodeOnNoListIsRetriedNotFatal() {
        // The deny-list names what fails again; anything else may pass (and give_up_after ends it).
        for (int code : new int[] {0, 49, 218, 1002, 4242}) {
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.SERVER);
        }
    }

    @Test
    void errorsAboutTheValuesBisectAndErrorsAboutTheSizeSplit() {
        // toUInt32 of a bad string, throwIf, Nested arrays of different sizes (18.16); constraints
        for (int code : new int[] {6, 395, 190, 38, 41, 69, 131, 153, 469}) {
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.CONTENT);
        }
        for (int code : new int[] {241, 173, 158, 307, 396}) { // memory, rows, bytes
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.SIZE);
        }
        assertThat(
                        ErrorClass.of(
                                BatchSenderTest.serverError(
                                        252,
                                        "Too many partitions for single INSERT block (more than"
                                                + " 100)")))
                .isEqualTo(ErrorClass.SIZE);
        assertThat(ErrorClass.CONTENT.splits()).isTrue();
        assertThat(ErrorClass.SIZE.splits()).isTrue();
        assertThat(ErrorClass.CONTENT.retryable()).isFalse();
        assertThat(ErrorClass.SIZE.retryable()).isFalse();
    }

    @Test
    void whatWouldFailAgainIsFatal() {
        // table, db, syntax, setting, readonly user, auth, access
        for (int code : new int[] {60, 81, 62, 115, 164, 192, 193, 516, 497, 44}) {
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.FATAL);
        }
        assertThat(ErrorClass.FATAL.retryable()).isFalse();
        assertThat(ErrorClass.FATAL.splits()).isFalse();
        assertThat(ErrorClass.of(new ClickHouseException("some client failure")))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(ErrorClass.of(new ProtocolException("garbage"))).isEqualTo(ErrorClass.FATAL);
        assertThat(ErrorClass.of(new IllegalStateException("bug"))).isEqualTo(ErrorClass.FATAL);
    }

    @Test
    void columnsTheTableDoesNotHaveAsSentMayMeanAnAlteredTable() {
        // no such column (a dropped one), no column in block, column counts, type mismatch
        for (int code : new int[] {16, 8, 10, 20, 53}) {
            RuntimeException e = BatchSenderTest.serverError(code, "x");
            assertThat(ErrorClass.of(e)).as("code " + code).isEqualTo(ErrorClass.SCHEMA);
            // once the table is known unchanged, they fail again unchanged: fatal, as before
            assertThat(ErrorClass.unchanged(e)).as("code " + code).isEqualTo(ErrorClass.FATAL);
        }
        // 18.16 over HTTP reading a Native column as the table's (other) type, as measured
        RuntimeException badCast =
                BatchSenderTest.serverError(
                        368,
                        "Bad cast from type DB::ColumnVector<unsigned int> to"
                                + " DB::ColumnVector<unsigned long>");
        assertThat(ErrorClass.of(badCast)).isEqualTo(ErrorClass.SCHEMA);
        assertThat(ErrorClass.unchanged(badCast)).isEqualTo(ErrorClass.SERVER);
        // BAD_CAST for another reason is no sign of a changed table
        assertThat(ErrorClass.of(BatchSenderTest.serverError(368, "Bad get: has UInt64")))
                .isEqualTo(ErrorClass.SERVER);
        // the native client's own comparison with the INSERT's header
        HeaderMismatchException header =
                new HeaderMismatchException(
                        "INSERT INTO t: column v UInt32 does not match the table's v UInt64");
        assertThat(ErrorClass.of(header)).isEqualTo(ErrorClass.SCHEMA);
        assertThat(ErrorClass.unchanged(header)).isEqualTo(ErrorClass.FATAL);
        assertThat(ErrorClass.SCHEMA.retryable()).isFalse();
        assertThat(ErrorClass.SCHEMA.splits()).isFalse();
        assertThat(ErrorClass.SCHEMA.brokeConnection()).isFalse();
    }
}
