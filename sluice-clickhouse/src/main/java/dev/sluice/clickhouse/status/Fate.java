package dev.sluice.clickhouse.status;

/** What became of one query, as far as the server's records tell. */
public enum Fate {
    /** The query log has its {@code QueryFinish} with all its rows written. */
    WRITTEN,
    /**
     * It failed ({@code ExceptionBeforeStart}, or {@code ExceptionWhileProcessing} with no row
     * written), or finished without receiving a row: nothing of it is in the table.
     */
    NOT_WRITTEN,
    /** It is in {@code system.processes}, and the log has no end for it yet. */
    RUNNING,
    /**
     * Part of it may be in the table: it failed after writing some rows ({@code
     * ExceptionWhileProcessing} with written or stored rows), or finished with fewer rows than
     * sent.
     */
    PARTIAL,
    /**
     * The log has its start but no end, and it is not running: the server stopped (or crashed)
     * during it.
     */
    STARTED,
    /** Neither running nor in the log. */
    NOT_FOUND;

    /** True when the query's effect is known: written or not written. */
    public boolean known() {
        return this == WRITTEN || this == NOT_WRITTEN;
    }
}
