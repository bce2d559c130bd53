package dev.sluice.pipeline.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.client.ClickHouseException;
import dev.sluice.clickhouse.client.ConnectionException;
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
        for (int code : new int[] {159, 209, 210, 241, 252}) { // timeout, network, memory, parts
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.SERVER);
        }
    }

    @Test
    void whatWouldFailAgainIsFatal() {
        for (int code : new int[] {16, 53, 60, 81, 192, 516}) { // column, type, table, db, auth
            assertThat(ErrorClass.of(BatchSenderTest.serverError(code, "x")))
                    .as("code " + code)
                    .isEqualTo(ErrorClass.FATAL);
        }
        assertThat(ErrorClass.of(new ClickHouseException("header mismatch")))
                .isEqualTo(ErrorClass.FATAL);
        assertThat(ErrorClass.of(new ProtocolException("garbage"))).isEqualTo(ErrorClass.FATAL);
        assertThat(ErrorClass.of(new IllegalStateException("bug"))).isEqualTo(ErrorClass.FATAL);
    }
}
