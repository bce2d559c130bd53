package dev.sluice.clickhouse.io;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Buffered reader of ClickHouse wire structures over an {@link InputStream}.
 *
 * <p>It is itself an {@code InputStream}, so that a decompressing stream layered on top reads the
 * same buffered bytes (packet headers are read raw, block bodies through the decompressor, on one
 * connection). A refill asks the source only for what it has: it never waits for bytes beyond those
 * needed by the current read, so reading a packet never blocks on the next one.
 *
 * <p>Truncated input is a {@link WireException} naming the byte offset. Not thread-safe.
 */
public final class WireInput extends InputStream {

    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Strings longer than this are treated as corrupt input rather than allocated. */
    public static final int MAX_STRING_BYTES = 1 << 30;

    private final InputStream source;
    private final byte[] buf;
    private int pos;
    private int limit;
    private long consumedBefore; // bytes of the stream before buf[0]

    public WireInput(InputStream source, int bufferSize) {
        this.source = source;
        this.buf = new byte[Math.max(64, bufferSize)];
    }

    /** Reads from a byte array (tests, golden files, buffered payloads). */
    public static WireInput of(byte[] bytes) {
        return new WireInput(new ByteArrayInputStream(bytes), Math.max(64, bytes.length));
    }

    /** Bytes consumed so far from the start of the stream. */
    public long offset() {
        return consumedBefore + pos;
    }

    /** True when no more bytes can be read; may block to find out. */
    public boolean atEnd() {
        return pos == limit && !fill();
    }

    /** Bytes available without touching the source. */
    public int buffered() {
        return limit - pos;
    }

    private boolean fill() {
        if (pos < limit) {
            return true;
        }
        consumedBefore += limit;
        pos = 0;
        limit = 0;
        try {
            int n;
            do {
                n = source.read(buf, 0, buf.length);
            } while (n == 0);
            if (n < 0) {
                return false;
            }
            limit = n;
            return true;
        } catch (IOException e) {
            throw WireException.io("read failed at byte " + offset(), e);
        }
    }

    private void require(int n, String what) {
        if (limit - pos >= n) {
            return;
        }
        // Move the tail to the front, then top up until n bytes are present.
        int rest = limit - pos;
        System.arraycopy(buf, pos, buf, 0, rest);
        consumedBefore += pos;
        pos = 0;
        limit = rest;
        try {
            while (limit < n) {
                int r = source.read(buf, limit, buf.length - limit);
                if (r < 0) {
                    throw truncated(what, n);
                }
                limit += r;
            }
        } catch (IOException e) {
            throw WireException.io("read of " + what + " failed at byte " + offset(), e);
        }
    }

    private WireException truncated(String what, long wanted) {
        return new WireException(
                "unexpected end of stream at byte "
                        + offset()
                        + " while reading "
                        + what
                        + " ("
                        + wanted
                        + " bytes wanted, "
                        + (limit - pos)
                        + " available)");
    }

    public int readUInt8() {
        if (pos == limit && !fill()) {
            throw truncated("UInt8", 1);
        }
        return buf[pos++] & 0xFF;
    }

    public byte readInt8() {
        return (byte) readUInt8();
    }

    public boolean readBoolean() {
        return readUInt8() != 0;
    }

    public short readInt16() {
        require(2, "Int16");
        short v = (short) SHORT_LE.get(buf, pos);
        pos += 2;
        return v;
    }

    public int readInt32() {
        require(4, "Int32");
        int v = (int) INT_LE.get(buf, pos);
        pos += 4;
        return v;
    }

    public long readInt64() {
        require(8, "Int64");
        long v = (long) LONG_LE.get(buf, pos);
        pos += 8;
        return v;
    }

    public float readFloat32() {
        return Float.intBitsToFloat(readInt32());
    }

    public double readFloat64() {
        return Double.longBitsToDouble(readInt64());
    }

    /** Unsigned LEB128, at most 10 bytes. */
    public long readVarUInt() {
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = readUInt8();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new WireException("VarUInt longer than 10 bytes at byte " + offset());
    }

    /** A VarUInt that must fit a non-negative int no larger than {@code max}. */
    public int readVarUIntAsInt(String what, long max) {
        long v = readVarUInt();
        if (v < 0 || v > max) {
            throw new WireException(
                    what
                            + " "
                            + Long.toUnsignedString(v)
                            + " exceeds "
                            + max
                            + " at byte "
                            + offset());
        }
        return (int) v;
    }

    public byte[] readStringBytes() {
        int len = readVarUIntAsInt("string length", MAX_STRING_BYTES);
        return readBytesGrowing(len);
    }

    /**
     * Reads {@code len} bytes into an array that grows as they arrive, so a corrupt length costs an
     * exception, not a gigabyte allocation.
     */
    private byte[] readBytesGrowing(int len) {
        int step = 1 << 20;
        if (len <= step) {
            byte[] out = new byte[len];
            readFully(out, 0, len);
            return out;
        }
        byte[] out = new byte[step];
        int have = 0;
        while (have < len) {
            if (have == out.length) {
                out = java.util.Arrays.copyOf(out, (int) Math.min(len, 2L * out.length));
            }
            int n = Math.min(len, out.length) - have;
            readFully(out, have, n);
            have += n;
        }
        return out;
    }

    public String readString() {
        int len = readVarUIntAsInt("string length", MAX_STRING_BYTES);
        if (len <= limit - pos) {
            String s = new String(buf, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return s;
        }
        return new String(readBytesGrowing(len), StandardCharsets.UTF_8);
    }

    /** Reads exactly {@code len} bytes into {@code dst}. */
    public void readFully(byte[] dst, int off, int len) {
        while (len > 0) {
            if (pos == limit) {
                if (len >= buf.length) {
                    // Large reads bypass the buffer.
                    consumedBefore += limit;
                    pos = 0;
                    limit = 0;
                    try {
                        int r = source.read(dst, off, len);
                        if (r < 0) {
                            throw truncated("bytes", len);
                        }
                        consumedBefore += r;
                        off += r;
                        len -= r;
                    } catch (IOException e) {
                        throw WireException.io("read failed at byte " + offset(), e);
                    }
                    continue;
                }
                if (!fill()) {
                    throw truncated("bytes", len);
                }
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    /** Skips exactly {@code n} bytes. */
    public void skipFully(long n) {
        while (n > 0) {
            if (pos == limit && !fill()) {
                throw truncated("skipped bytes", n);
            }
            int k = (int) Math.min(n, limit - pos);
            pos += k;
            n -= k;
        }
    }

    // InputStream view, for decompressors layered on top.

    @Override
    public int read() {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xFF;
    }

    @Override
    public int read(byte[] dst, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (pos == limit && !fill()) {
            return -1;
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(buf, pos, dst, off, n);
        pos += n;
        return n;
    }

    @Override
    public int available() throws IOException {
        return (limit - pos) + source.available();
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
