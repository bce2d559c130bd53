package dev.sluice.clickhouse.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A byte buffer that ClickHouse wire structures are written into: little-endian fixed-width values,
 * LEB128 {@code VarUInt}s and length-prefixed strings.
 *
 * <p>Two modes share one write path. Without a {@link Drain} the buffer grows as needed. With a
 * drain, a write that does not fit first hands the buffered bytes to the drain (a socket, or a
 * compressor that turns them into one frame) and continues in the emptied buffer; only a single
 * reservation larger than the capacity grows it. Not thread-safe.
 */
public final class WireOutput {

    /**
     * Receives the buffered bytes when a draining buffer is full or explicitly flushed. The array
     * may also be a caller's source array (see {@link #writeBytes(byte[], int, int)}): a drain must
     * consume the bytes before it returns and keep no reference to the array.
     */
    @FunctionalInterface
    public interface Drain {
        void drain(byte[] buf, int off, int len) throws WireException;
    }

    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int pos;
    private long drained; // bytes handed to the drain so far
    private final Drain drain;

    /** A growable buffer. */
    public WireOutput(int initialCapacity) {
        this(initialCapacity, null);
    }

    /** A buffer of fixed capacity that drains into {@code drain} when full. */
    public WireOutput(int capacity, Drain drain) {
        this.buf = new byte[Math.max(16, capacity)];
        this.drain = drain;
    }

    public byte[] array() {
        return buf;
    }

    public int position() {
        return pos;
    }

    public int capacity() {
        return buf.length;
    }

    /** Every byte written since creation: those drained plus those still buffered. */
    public long totalWritten() {
        return drained + pos;
    }

    /** Forgets the written bytes; capacity is kept. */
    public void reset() {
        pos = 0;
    }

    /** Moves the write position after bytes written directly into {@link #array()}. */
    public void advance(int n) {
        if (n < 0 || pos + n > buf.length) {
            throw new IndexOutOfBoundsException(
                    "advance " + n + " at " + pos + " of " + buf.length);
        }
        pos += n;
    }

    /** Trims the buffer back to {@code position} (which must not exceed the current position). */
    public void truncate(int position) {
        if (position < 0 || position > pos) {
            throw new IndexOutOfBoundsException("truncate to " + position + " at " + pos);
        }
        pos = position;
    }

    /**
     * Makes room for {@code n} contiguous bytes at {@link #position()}: drains or grows. After
     * this, {@code array()[position() .. position()+n)} may be written directly, then {@link
     * #advance(int)}.
     */
    public void ensureWritable(int n) {
        if (n > buf.length - pos) {
            makeRoom(n);
        }
    }

    private void makeRoom(int n) {
        if (drain != null && pos > 0) {
            flush();
            if (n <= buf.length) {
                return;
            }
        }
        long needed = (long) pos + n;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new WireException("buffer would exceed 2 GiB (" + needed + " bytes)");
        }
        int newCap = (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 16, 2L * buf.length));
        buf = Arrays.copyOf(buf, newCap);
    }

    /** Hands buffered bytes to the drain; a no-op for growable buffers or when empty. */
    public void flush() {
        if (drain != null && pos > 0) {
            int len = pos;
            pos = 0;
            drained += len;
            drain.drain(buf, 0, len);
        }
    }

    public WireOutput writeByte(int v) {
        ensureWritable(1);
        buf[pos++] = (byte) v;
        return this;
    }

    public WireOutput writeBoolean(boolean v) {
        return writeByte(v ? 1 : 0);
    }

    public WireOutput writeInt16(int v) {
        ensureWritable(2);
        SHORT_LE.set(buf, pos, (short) v);
        pos += 2;
        return this;
    }

    public WireOutput writeInt32(int v) {
        ensureWritable(4);
        INT_LE.set(buf, pos, v);
        pos += 4;
        return this;
    }

    public WireOutput writeInt64(long v) {
        ensureWritable(8);
        LONG_LE.set(buf, pos, v);
        pos += 8;
        return this;
    }

    public WireOutput writeFloat32(float v) {
        return writeInt32(Float.floatToRawIntBits(v));
    }

    public WireOutput writeFloat64(double v) {
        return writeInt64(Double.doubleToRawLongBits(v));
    }

    /** Unsigned LEB128; {@code v} is treated as unsigned 64-bit. */
    public WireOutput writeVarUInt(long v) {
        ensureWritable(10);
        byte[] b = buf;
        int p = pos;
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        pos = p;
        return this;
    }

    /** Number of bytes {@link #writeVarUInt(long)} uses for {@code v}. */
    public static int varUIntSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    public WireOutput writeBytes(byte[] src) {
        return writeBytes(src, 0, src.length);
    }

    /**
     * Copies bytes; in draining mode large writes are split across drains at the same boundaries as
     * small ones, and whole buffers of them go to the drain without being copied.
     */
    public WireOutput writeBytes(byte[] src, int off, int len) {
        if (len <= buf.length - pos) {
            System.arraycopy(src, off, buf, pos, len);
            pos += len;
            return this;
        }
        if (drain == null) {
            ensureWritable(len);
            System.arraycopy(src, off, buf, pos, len);
            pos += len;
            return this;
        }
        while (len > 0) {
            if (pos == buf.length) {
                flush();
            }
            if (pos == 0 && len >= buf.length) {
                // A whole buffer's worth: the drain takes it straight from the source, with the
                // same boundaries as a copy through the buffer would have, minus the copy.
                int n = buf.length;
                drained += n;
                drain.drain(src, off, n);
                off += n;
                len -= n;
                continue;
            }
            int n = Math.min(len, buf.length - pos);
            System.arraycopy(src, off, buf, pos, n);
            pos += n;
            off += n;
            len -= n;
        }
        return this;
    }

    /** A ClickHouse String: VarUInt byte length, then the bytes. */
    public WireOutput writeString(byte[] utf8) {
        return writeString(utf8, 0, utf8.length);
    }

    /**
     * A ClickHouse String of {@code src[off .. off+len)}. The per-row call of every String column:
     * when the value fits, length and bytes go in with one bounds check and no VarUInt loop.
     */
    public WireOutput writeString(byte[] src, int off, int len) {
        byte[] b = buf;
        int p = pos;
        if (len < 1 << 14 && len + 2 <= b.length - p) {
            if (len < 1 << 7) {
                b[p++] = (byte) len;
            } else {
                b[p++] = (byte) (len | 0x80);
                b[p++] = (byte) (len >>> 7);
            }
            System.arraycopy(src, off, b, p, len);
            pos = p + len;
            return this;
        }
        writeVarUInt(len);
        return writeBytes(src, off, len);
    }

    /** A ClickHouse String from Java text, encoded as UTF-8. */
    public WireOutput writeString(String s) {
        return writeString(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code n} zero bytes. */
    public WireOutput writeZeros(int n) {
        while (n > 0) {
            ensureWritable(Math.min(n, buf.length));
            int k = Math.min(n, buf.length - pos);
            Arrays.fill(buf, pos, pos + k, (byte) 0);
            pos += k;
            n -= k;
        }
        return this;
    }

    /** A copy of the written bytes (tests and small packets). */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }
}
