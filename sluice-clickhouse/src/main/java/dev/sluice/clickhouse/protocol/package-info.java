/**
 * The packets of ClickHouse's native TCP protocol, as bytes: one small type per packet, each with
 * {@code write(WireOutput, revision)} or {@code static read(WireInput, revision)}. No sockets, no
 * threads, no logging; blocks inside Data, Log and ProfileEvents packets belong to the block layer.
 *
 * <p>A connection runs:
 *
 * <pre>
 * client                                   server
 * {@link dev.sluice.clickhouse.protocol.ClientHello} ─────────────────────────▶
 *         ◀───────────────────────── {@link dev.sluice.clickhouse.protocol.ServerHello} (or Exception)
 * [≥54458] {@link dev.sluice.clickhouse.protocol.Addendum} ─────────────────────▶
 * {@link dev.sluice.clickhouse.protocol.QueryPacket}, empty Data block ────────▶
 *         ◀── [{@link dev.sluice.clickhouse.protocol.TableColumns}] Data (header) · Progress · Log · ProfileEvents
 * Data blocks..., empty Data block ──────▶
 *         ◀── Progress · ProfileEvents · ... · EndOfStream or {@link dev.sluice.clickhouse.protocol.ServerExceptionInfo Exception}
 * </pre>
 *
 * <p>Revisions: the client announces {@link
 * dev.sluice.clickhouse.protocol.ProtocolRevision#CLIENT_REVISION}; after the Hello both sides gate
 * every field on {@link dev.sluice.clickhouse.protocol.ProtocolRevision#negotiate min(client,
 * server)}. Readers and writers take that negotiated revision. Those whose layouts change after
 * {@code CLIENT_REVISION} refuse a higher one.
 */
package dev.sluice.clickhouse.protocol;
