package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.protocol.Progress;
import dev.sluice.clickhouse.protocol.ProtocolRevision;
import dev.sluice.clickhouse.protocol.TableColumns;

/**
 * A running INSERT: columns shaped by the server's header (names and exact types, in the server's
 * order). Append one value to every column, call {@link #endRow()}, repeat; blocks are sent when
 * they reach the row or byte limit of {@link InsertOptions}, or on {@link #flush()}. {@link
 * #finish()} sends the rest and waits for the server's acknowledgement.
 *
 * <pre>{@code
 * try (Insert insert = connection.insert("events", List.of(), Map.of())) {
 *     Column ts = insert.column("ts");
 *     Column id = insert.column("id");
 *     for (Event e : events) {
 *         ts.appendLong(e.epochSeconds());
 *         id.appendUnsignedLong(e.id());
 *         insert.endRow();
 *     }
 *     InsertResult result = insert.finish();
 * }
 * }</pre>
 *
 * <p>Rows are durable only once {@link #finish()} returns. Blocks already sent when an insert fails
 * or is closed without {@code finish()} may have been written by the server (each block is its own
 * insert there); closing an unfinished insert drops the connection, so nothing more is written.
 *
 * <p>Not thread-safe: fill it from one thread at a time (handing it over between threads needs the
 * caller's own synchronization). Two threads sending blocks, flushing or finishing at once fail
 * fast with an {@link IllegalStateException} rather than mixing their bytes on the wire. With an
 * {@link ConnectionConfig#operationTimeout() operation timeout}, its start, each block sent and its
 * finish each have that long; the time between them is the caller's.
 */
public final class Insert implements AutoCloseable {
    private final NativeConnection connection;
    private final String table;
    private final String queryId;
    private final Block block;
    private final TableColumns tableColumns;
    private final InsertOptions options;
    private final String context;
    private final long startedNanos;
    private long rowsSent;
    private long blocksSent;
    private long uncompressedBytes;
    private long wireBytes;
    private int rowsSinceBytesCheck;
    private int completedRows; // rows closed by endRow() and not yet sent
    private boolean done;

    Insert(
            NativeConnection connection,
            String table,
            String queryId,
            Block header,
            TableColumns tableColumns,
            InsertOptions options,
            long startedNanos) {
        this.connection = connection;
        this.table = table;
        this.queryId = queryId;
        this.block = header;
        this.tableColumns = tableColumns;
        this.options = options;
        this.context = "INSERT INTO " + table;
        this.startedNanos = startedNanos;
    }

    /** The block being filled; its columns are the server's header. */
    public Block block() {
        return block;
    }

    public Column column(int index) {
        return block.column(index);
    }

    /** The column called {@code name}; an unknown name is an error listing the known ones. */
    public Column column(String name) {
        Column c = block.column(name);
        if (c == null) {
            StringBuilder known = new StringBuilder();
            for (Column k : block.columns()) {
                known.append(known.isEmpty() ? "" : ", ").append(k.name());
            }
            throw new IllegalArgumentException(
                    context + ": no column " + name + " in the insert (columns: " + known + ")");
        }
        return c;
    }

    public String queryId() {
        return queryId;
    }

    /**
     * The table's column metadata (defaults) when the server sent it before the header, else null.
     */
    public TableColumns tableColumns() {
        return tableColumns;
    }

    /** Rows in blocks already sent. */
    public long rowsSent() {
        return rowsSent;
    }

    /** Native bytes of the blocks sent so far, before compression. */
    public long uncompressedBytesSent() {
        return uncompressedBytes;
    }

    /** Bytes written to the socket for the blocks sent so far. */
    public long wireBytesSent() {
        return wireBytes;
    }

    /** Complete rows (closed by {@link #endRow()}) not yet sent. */
    public int rowsPending() {
        return completedRows;
    }

    /**
     * Completes a row: every column must have exactly one more value. Sends the block when it
     * reached the row or byte limit.
     *
     * @throws IllegalStateException when a column has a value too many or too few
     */
    public void endRow() {
        checkOpen();
        int rows = completedRows + 1;
        for (int i = 0, n = block.columnCount(); i < n; i++) {
            Column c = block.column(i);
            if (c.rows() != rows) {
                throw new IllegalStateException(
                        context
                                + ": column "
                                + c.name()
                                + " has "
                                + (c.rows() - completedRows)
                                + " new values for row "
                                + completedRows
                                + " (each column needs exactly one); call abortRow() to drop"
                                + " the partial row");
            }
        }
        completedRows = rows;
        if (rows >= options.maxBlockRows()) {
            send();
        } else if (++rowsSinceBytesCheck >= InsertOptions.BYTES_CHECK_INTERVAL) {
            rowsSinceBytesCheck = 0;
            if (block.dataBytes() >= options.maxBlockBytes()) {
                send();
            }
        }
    }

    /**
     * Drops the values appended since the last {@link #endRow()}: after one value of a record was
     * rejected, the record's other values must go too.
     */
    public void abortRow() {
        checkOpen();
        block.truncate(completedRows);
    }

    /**
     * Sends the rows appended so far as one block, then checks for an error the server reported
     * meanwhile (it fails an INSERT as soon as a block fails, long before {@link #finish()}): such
     * an error is thrown here, even when there was nothing to send.
     */
    public void flush() {
        checkOpen();
        if (completedRows == 0 && block.column(0).rows() == 0) {
            try {
                connection.pollServerStep(context);
            } catch (IllegalStateException e) {
                throw e; // another thread is inside: this insert is still theirs to finish
            } catch (RuntimeException e) {
                done = true;
                throw e;
            }
            return;
        }
        send();
    }

    private void send() {
        if (block.column(0).rows() != completedRows) {
            throw new IllegalStateException(
                    context + ": a row was started but not ended; call endRow() or abortRow()");
        }
        int rows = completedRows;
        rowsSinceBytesCheck = 0;
        if (rows == 0) {
            return;
        }
        long bytes = block.dataBytes();
        try {
            wireBytes += connection.sendBlock(block, context, true);
        } catch (IllegalStateException e) {
            throw e; // another thread is inside: nothing was sent
        } catch (RuntimeException e) {
            done = true;
            throw e;
        }
        rowsSent += rows;
        blocksSent++;
        uncompressedBytes += bytes;
        block.reset();
        completedRows = 0;
    }

    /**
     * Sends the remaining rows, ends the INSERT and waits for the server's acknowledgement. The
     * connection then keeps this insert's columns, emptied, for its next insert into a table of the
     * same shape: do not use {@link #block()} or its columns after this.
     */
    public InsertResult finish() {
        checkOpen();
        send();
        Progress p;
        try {
            p = connection.finishInsert(context);
        } catch (IllegalStateException e) {
            throw e; // another thread is inside: nothing was sent
        } catch (RuntimeException | Error e) {
            done = true;
            throw e;
        }
        done = true;
        connection.recycle(block);
        boolean hasWriteInfo =
                connection.revision() >= ProtocolRevision.DBMS_MIN_REVISION_WITH_CLIENT_WRITE_INFO;
        return new InsertResult(
                queryId,
                rowsSent,
                blocksSent,
                uncompressedBytes,
                wireBytes,
                hasWriteInfo ? p.writtenRows() : -1,
                hasWriteInfo ? p.writtenBytes() : -1,
                System.nanoTime() - startedNanos);
    }

    /** Sends {@code filled} (a block shaped like the header) as the data and finishes. */
    InsertResult finishWith(Block filled) {
        checkOpen();
        int rows = filled.rows();
        if (rows > 0) {
            long bytes = filled.dataBytes();
            try {
                wireBytes += connection.sendBlock(filled, context, false);
            } catch (IllegalStateException e) {
                throw e; // another thread is inside: nothing was sent
            } catch (RuntimeException e) {
                done = true;
                throw e;
            }
            rowsSent += rows;
            blocksSent++;
            uncompressedBytes += bytes;
        }
        return finish();
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException(context + ": the insert is finished or closed");
        }
    }

    /**
     * Ends the insert. After {@link #finish()} this does nothing; otherwise the pending rows are
     * discarded and the connection is dropped, since the protocol has no way to take back an INSERT
     * in progress.
     */
    @Override
    public void close() {
        if (!done) {
            done = true;
            block.reset();
            completedRows = 0;
            connection.abandon("an INSERT into " + table + " was closed without finish()");
        }
    }
}
