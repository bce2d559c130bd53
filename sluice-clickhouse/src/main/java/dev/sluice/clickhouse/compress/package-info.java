/**
 * ClickHouse compressed frames: the unit in which block bodies travel when compression is on.
 *
 * <pre>
 *  offset  size  field
 *  0       16    checksum: CityHash128 v1.0.2 of bytes 16 .. 16+compressed_size,
 *                low 64 bits then high 64 bits, each little-endian
 *  16      1     method: 0x02 NONE, 0x82 LZ4 (and LZ4HC), 0x90 ZSTD
 *  17      4     compressed_size, UInt32 LE: the 9 header bytes plus the payload
 *  21      4     uncompressed_size, UInt32 LE: bytes the payload decodes to (never 0)
 *  25      n     payload, n = compressed_size - 9: raw bytes, one LZ4 block or one zstd frame
 *
 *  +----------------+--+--------+--------+---------------------+
 *  | checksum (16)  |m | csize  | usize  | payload (csize - 9) |
 *  +----------------+--+--------+--------+---------------------+
 *                   |&lt;------- hashed: csize bytes ----------&gt;|
 * </pre>
 *
 * <p>Frames follow one another with nothing in between. A block may span several frames, but on a
 * connection every Data packet ends on a frame boundary, because the server reads the next packet's
 * header raw. {@link dev.sluice.clickhouse.compress.FrameEncoder} writes at most 1 MiB of input per
 * frame, as ClickHouse's own writer does; the server accepts sizes up to 1 GiB.
 */
package dev.sluice.clickhouse.compress;
