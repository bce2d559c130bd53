package dev.sluice.rigs.peers;

import java.util.Map;

/** One client of the peers rig: inserts the run's rows into a table, its own way. */
interface Peer {
    /** The arm's name ({@code peer} axis value). */
    String name();

    /** What the client is and how it is called, for the report. */
    String description();

    /**
     * Inserts every row into {@code run.table()}.
     *
     * @return what the client reported and what it cost
     * @throws Exception whatever the client threw: the arm failed
     */
    Outcome insert(PeerRun run) throws Exception;

    /**
     * @param reportedRows rows the client said it wrote, or -1 when it does not say
     * @param clientCpuSeconds the client's CPU time (its process, or this JVM during the insert)
     * @param reported what the client reported, in its words (for a failed arm's explanation)
     */
    record Outcome(
            long reportedRows,
            double seconds,
            double clientCpuSeconds,
            String reported,
            Map<String, Object> extra) {}
}
