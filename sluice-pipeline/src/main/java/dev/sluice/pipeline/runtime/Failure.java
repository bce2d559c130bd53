package dev.sluice.pipeline.runtime;

/**
 * Why a pipeline stopped before its end.
 *
 * @param reason what went wrong, e.g. the server's message or the record's problem
 * @param partition the partition concerned, or null
 * @param location where the failing record is ({@code partition:line (position P)}), or null when
 *     the failure is not a record's
 */
public record Failure(String reason, String partition, String location) {}
