package dev.sluice.pipeline.writer;

/**
 * A submission the server acknowledged: its rows are in the table (durably: the writer sends {@code
 * async_insert=0} to servers that have asynchronous inserts, unless told otherwise).
 *
 * @param rows the submission's rows
 * @param token the deduplication token its INSERT carried (the writer's own for rows it gathered
 *     from several submissions)
 */
public record Written(long rows, String token) {}
