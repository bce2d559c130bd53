package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.protocol.ProfileInfo;
import dev.sluice.clickhouse.protocol.Progress;

/**
 * What a finished query reported.
 *
 * @param rows rows received in Data blocks
 * @param blocks Data blocks with at least one row
 * @param progress sum of the server's Progress packets
 * @param profileInfo the last ProfileInfo packet, or null
 */
public record QueryResult(
        String queryId, long rows, long blocks, Progress progress, ProfileInfo profileInfo) {}
