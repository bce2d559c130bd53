package dev.sluice.pipeline.sink;

import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;

/**
 * Whether one batch is pre-sorted. Its writer decides once, in its own thread, just before shaping
 * the batch ({@link InsertPlan#presortFor}), and the decision stays with the batch: every attempt
 * sends the blocks shaped then (property 2).
 *
 * <p>A replay after a restart may decide otherwise than the first run under {@code auto} (the queue
 * is not the same). That is safe for deduplication: the server sorts an unsorted block by the same
 * key with a stable sort, exactly as the client does (docs/presort.md, "Checked against the
 * server"), so the part it writes — and its checksums, from which 18.16 makes the block id it
 * deduplicates by — is the same whether or not the client sorted, and the INSERT's rows and token
 * are the same too. Where the order of the rows would name them — the halves of an INSERT the
 * server refused ({@code /r<first>-<last>}), the partitions of a split batch ({@code /p<j>}) — the
 * order is always the sorted one: a batch not sorted is sorted before it is halved ({@link
 * BatchShaper#sortedForHalving}), and with the partition split {@code auto} sorts every batch.
 */
enum PresortDecision {
    /** Pre-sorting is off, or the table's key is not supported: the batch goes as it came. */
    OFF,
    /** The batch's blocks are sorted ({@code on}, or {@code auto} with batches waiting). */
    SORT,
    /**
     * {@code auto}, and no batch was waiting behind this one: decoding, not the server, is the
     * slower side, and the writer's time is better spent waiting for the next batch than taking CPU
     * from the pipeline threads. Counted as {@code skipped_no_backlog}.
     */
    SKIP_NO_BACKLOG;

    /**
     * The decision for a batch under {@code mode} (already {@code off} when the key is not
     * supported).
     *
     * @param backlog the shard writer's queue holds at least one more sealed batch behind this one:
     *     the server is behind, so the time the writer spends sorting it would otherwise spend with
     *     batches waiting, and the sort the server skips shortens the INSERT they wait for
     */
    static PresortDecision of(PresortMode mode, boolean backlog) {
        return switch (mode) {
            case OFF -> OFF;
            case ON -> SORT;
            case AUTO -> backlog ? SORT : SKIP_NO_BACKLOG;
        };
    }
}
