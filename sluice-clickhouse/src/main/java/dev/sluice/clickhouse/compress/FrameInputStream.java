package dev.sluice.clickhouse.compress;

import static dev.sluice.clickhouse.compress.FrameEncoder.CHECKSUM_SIZE;
import static dev.sluice.clickhouse.compress.FrameEncoder.HEADER_SIZE;
import static dev.sluice.clickhouse.compress.FrameEncoder.PREFIX_SIZE;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The uncompressed bytes of a sequence of ClickHouse compressed frames.
 *
 * <p>Frames are read one at a time and only on demand: a read returns at most what is left of the
 * current frame, and the next frame's header is requested from the source only when the current
 * frame is used up and more bytes are asked for. On a connection, where raw packet headers and
 * compressed block bodies alternate on one {@link WireInput}, this is what keeps the reader from
 * blocking on (or swallowing) bytes that belong to the next packet.
 *
 * <p>Every frame's checksum is verified; the method may differ from frame to frame, as ClickHouse
 * allows on TCP. Corrupt or truncated input is a {@link WireException} naming the frame's offset
 * (the source's {@link WireInput#offset()} when it is one, else bytes read by this stream). Closing
 * this stream closes the source. Not thread-safe.
 */
public final class FrameInputStream extends InputStream {

    /** ClickHouse's DBMS_MAX_COMPRESSED_SIZE, applied to both sizes in a frame header. */
    static final long MAX_FRAME_SIZE = 1L << 30;

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream source;
    private final WireInput wire;
    // Safe rather than fast decompressor: payloads come from the network, and the fast one trusts
    // the block not to reference outside the buffers.
    private final LZ4SafeDecompressor lz4 = LZ4Factory.fastestInstance().safeDecompressor();

    private byte[] frame = new byte[PREFIX_SIZE + 64 * 1024];
    private byte[] decoded = new byte[0];
    private long consumed;

    /** The current frame's uncompressed bytes: {@code frame} for NONE, else {@code decoded}. */
    private byte[] current = decoded;

    private int pos;
    private int limit;

    public FrameInputStream(InputStream source) {
        this.source = Objects.requireNonNull(source, "source");
        this.wire = source instanceof WireInput w ? w : null;
    }

    @Override
    public int read() throws IOException {
        if (pos == limit && !nextFrame()) {
            return -1;
        }
        return current[pos++] & 0xFF;
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, dst.length);
        if (len == 0) {
            return 0;
        }
        if (pos == limit && !nextFrame()) {
            return -1;
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(current, pos, dst, off, n);
        pos += n;
        return n;
    }

    /** Uncompressed bytes left in the current frame; zero exactly at a frame boundary. */
    @Override
    public int available() {
        return limit - pos;
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

    /** Loads the next frame; false if the source ends cleanly before its first byte. */
    private boolean nextFrame() throws IOException {
        long at = offset();
        int got = readUpTo(frame, 0, PREFIX_SIZE);
        if (got == 0) {
            return false;
        }
        if (got < PREFIX_SIZE) {
            throw new WireException(
                    "truncated compressed frame at byte "
                            + at
                            + ": stream ended after "
                            + got
                            + " of the "
                            + PREFIX_SIZE
                            + " checksum and header bytes");
        }
        int methodByte = frame[CHECKSUM_SIZE] & 0xFF;
        long compressedSize = Integer.toUnsignedLong((int) INT_LE.get(frame, CHECKSUM_SIZE + 1));
        long size = Integer.toUnsignedLong((int) INT_LE.get(frame, CHECKSUM_SIZE + 5));
        if (compressedSize < HEADER_SIZE || compressedSize > MAX_FRAME_SIZE) {
            throw corruptHeader(
                    at, "compressed size " + compressedSize + " outside 9.." + MAX_FRAME_SIZE);
        }
        if (size == 0 || size > MAX_FRAME_SIZE) {
            throw corruptHeader(at, "uncompressed size " + size + " outside 1.." + MAX_FRAME_SIZE);
        }

        int payloadSize = (int) compressedSize - HEADER_SIZE;
        frame = grow(frame, PREFIX_SIZE, PREFIX_SIZE + payloadSize);
        got = readUpTo(frame, PREFIX_SIZE, payloadSize);
        if (got < payloadSize) {
            throw new WireException(
                    "truncated compressed frame at byte "
                            + at
                            + ": stream ended after "
                            + got
                            + " of "
                            + payloadSize
                            + " payload bytes");
        }
        verifyChecksum(at, (int) compressedSize);

        CompressionMethod method = CompressionMethod.lookup(methodByte);
        if (method == null) {
            throw new WireException(
                    "in compressed frame at byte "
                            + at
                            + ": "
                            + CompressionMethod.unknownByteMessage(methodByte));
        }
        int n = (int) size;
        if (method == CompressionMethod.NONE) {
            if (payloadSize != n) {
                throw corruptHeader(
                        at,
                        "NONE frame of "
                                + payloadSize
                                + " payload bytes claims "
                                + n
                                + " uncompressed");
            }
            current = frame;
            pos = PREFIX_SIZE;
            limit = PREFIX_SIZE + n;
            return true;
        }
        decoded = grow(decoded, 0, n);
        int produced = decompress(method, payloadSize, n, at);
        if (produced != n) {
            throw new WireException(
                    method
                            + " payload of compressed frame at byte "
                            + at
                            + " decompressed to "
                            + produced
                            + " bytes, header says "
                            + n);
        }
        current = decoded;
        pos = 0;
        limit = n;
        return true;
    }

    private int decompress(CompressionMethod method, int payloadSize, int n, long at) {
        try {
            if (method == CompressionMethod.LZ4) {
                return lz4.decompress(frame, PREFIX_SIZE, payloadSize, decoded, 0, n);
            }
            // A context per frame keeps this stream free of native state to release; its cost is
            // small next to decompressing the frame.
            return (int) Zstd.decompressByteArray(decoded, 0, n, frame, PREFIX_SIZE, payloadSize);
        } catch (LZ4Exception | ZstdException e) {
            throw new WireException(
                    "corrupt "
                            + method
                            + " payload in compressed frame at byte "
                            + at
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private void verifyChecksum(long at, int compressedSize) {
        CityHash128.Hash128 h = CityHash128.hash(frame, CHECKSUM_SIZE, compressedSize);
        long low = (long) LONG_LE.get(frame, 0);
        long high = (long) LONG_LE.get(frame, 8);
        if (h.low() != low || h.high() != high) {
            throw new WireException(
                    String.format(
                            "checksum mismatch in compressed frame at byte %d: expected"
                                    + " %016x%016x, got %016x%016x (CityHash128 low then high"
                                    + " half; method byte 0x%02x, compressed size %d)",
                            at,
                            low,
                            high,
                            h.low(),
                            h.high(),
                            frame[CHECKSUM_SIZE] & 0xFF,
                            compressedSize));
        }
    }

    private static WireException corruptHeader(long at, String detail) {
        return new WireException("corrupt frame header at byte " + at + ": " + detail);
    }

    /** Reads until {@code len} bytes or end of stream, asking the source for no more than that. */
    private int readUpTo(byte[] dst, int off, int len) throws IOException {
        int done = 0;
        while (done < len) {
            int r = source.read(dst, off + done, len - done);
            if (r < 0) {
                break;
            }
            done += r;
        }
        consumed += done;
        return done;
    }

    private long offset() {
        return wire != null ? wire.offset() : consumed;
    }

    /** Grows {@code buf} to at least {@code needed} bytes, keeping its first {@code keep}. */
    private static byte[] grow(byte[] buf, int keep, int needed) {
        if (buf.length >= needed) {
            return buf;
        }
        int size = (int) Math.min(Math.max(needed, 2L * buf.length), PREFIX_SIZE + MAX_FRAME_SIZE);
        byte[] bigger = new byte[size];
        System.arraycopy(buf, 0, bigger, 0, keep);
        return bigger;
    }
}
