package dev.sluice.clickhouse.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.clickhouse.status.QueryTrace.Entry;
import dev.sluice.clickhouse.status.QueryTrace.Kind;
import dev.sluice.clickhouse.status.QueryTrace.Running;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How what the server records about an INSERT reads as its fate (QueryTraceIT pins the facts). */
class QueryTraceTest {
    private static final String ID = "tok#n.1";

    private static QueryTrace log(Entry... entries) {
        return new QueryTrace(List.of(), List.of(entries), true);
    }

    private static Entry e(Kind kind, long written, long stored) {
        return new Entry(ID, kind, written, stored, kind == Kind.FINISH ? "" : "Code: 210");
    }

    @Test
    void aFinishWithTheRowsIsWrittenWithNoRowsNotWrittenWithFewerPartial() {
        assertThat(log(e(Kind.START, 0, 0), e(Kind.FINISH, 100, 100)).fate(ID, 100))
                .isEqualTo(Fate.WRITTEN);
        // A materialized view adds its own rows.
        assertThat(log(e(Kind.FINISH, 250, 250)).fate(ID, 100)).isEqualTo(Fate.WRITTEN);
        // The client left before its block: 18.16 finishes the INSERT with nothing.
        assertThat(log(e(Kind.FINISH, 0, 0)).fate(ID, 100)).isEqualTo(Fate.NOT_WRITTEN);
        assertThat(log(e(Kind.FINISH, 40, 40)).fate(ID, 100)).isEqualTo(Fate.PARTIAL);
    }

    @Test
    void aFinishFollowedByTheFailureToAcknowledgeIsWritten() {
        assertThat(
                        log(e(Kind.FINISH, 100, 100), e(Kind.EXCEPTION_WHILE_PROCESSING, 0, 0))
                                .fate(ID, 100))
                .isEqualTo(Fate.WRITTEN);
    }

    @Test
    void aFailureIsNotWrittenUnlessRowsReachedTheTable() {
        assertThat(log(e(Kind.EXCEPTION_BEFORE_START, 0, 0)).fate(ID, 100))
                .isEqualTo(Fate.NOT_WRITTEN);
        assertThat(log(e(Kind.START, 0, 0), e(Kind.EXCEPTION_WHILE_PROCESSING, 0, 0)).fate(ID, 100))
                .isEqualTo(Fate.NOT_WRITTEN);
        assertThat(log(e(Kind.EXCEPTION_WHILE_PROCESSING, 0, 30)).fate(ID, 100))
                .isEqualTo(Fate.PARTIAL);
        assertThat(log(e(Kind.EXCEPTION_WHILE_PROCESSING, 30, 0)).fate(ID, 100))
                .isEqualTo(Fate.PARTIAL);
    }

    @Test
    void runningUntilTheLogHasAnEndAStartAloneIsAServerThatStoppedNothingIsNotFound() {
        QueryTrace running =
                new QueryTrace(
                        List.of(new Running(ID, 3.5, 0)), List.of(e(Kind.START, 0, 0)), true);
        assertThat(running.fate(ID, 100)).isEqualTo(Fate.RUNNING);
        // The end is logged before the query leaves the process list: the end wins.
        QueryTrace ending =
                new QueryTrace(
                        List.of(new Running(ID, 3.5, 100)),
                        List.of(e(Kind.START, 0, 0), e(Kind.FINISH, 100, 100)),
                        true);
        assertThat(ending.fate(ID, 100)).isEqualTo(Fate.WRITTEN);
        assertThat(log(e(Kind.START, 0, 0)).fate(ID, 100)).isEqualTo(Fate.STARTED);
        assertThat(log().fate(ID, 100)).isEqualTo(Fate.NOT_FOUND);
        assertThat(log(e(Kind.FINISH, 100, 100)).fate("tok#n.2", 100)).isEqualTo(Fate.NOT_FOUND);
    }

    @Test
    void fatesListEveryQueryIdSeen() {
        QueryTrace t =
                new QueryTrace(
                        List.of(new Running("tok#b.1", 1, 0)),
                        List.of(
                                new Entry("tok#a.1", Kind.FINISH, 10, 10, ""),
                                new Entry("tok#a.2", Kind.EXCEPTION_WHILE_PROCESSING, 0, 0, "x")),
                        true);
        assertThat(t.fates(10))
                .containsExactly(
                        java.util.Map.entry("tok#b.1", Fate.RUNNING),
                        java.util.Map.entry("tok#a.1", Fate.WRITTEN),
                        java.util.Map.entry("tok#a.2", Fate.NOT_WRITTEN));
        assertThat(t.exception("tok#a.2")).isEqualTo("x");
    }

    @Test
    void logTypesReadAsNumbersOn1816AndAsNamesOnNewerServers() {
        assertThat(Kind.parse("2")).isEqualTo(Kind.FINISH);
        assertThat(Kind.parse("QueryFinish")).isEqualTo(Kind.FINISH);
        assertThat(Kind.parse("4")).isEqualTo(Kind.EXCEPTION_WHILE_PROCESSING);
        assertThat(Kind.parse("ExceptionBeforeStart")).isEqualTo(Kind.EXCEPTION_BEFORE_START);
        assertThatThrownBy(() -> Kind.parse("9")).hasMessageContaining("unknown query_log type 9");
    }
}
