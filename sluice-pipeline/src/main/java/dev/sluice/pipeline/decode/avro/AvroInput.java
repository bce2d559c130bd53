package dev.sluice.pipeline.decode.avro;

/**
 * Reads Avro's binary encoding straight from a record's bytes: zig-zag varints, little-endian
 * floats, length-prefixed bytes and strings, blocked arrays and maps. Strings and bytes are not
 * copied: {@link #readLength} returns a length and the value is {@code bytes()[position()...]}
 * until {@link #skip} moves past it. One instance is reset for every record (no allocation per
 * record, property 6).
 */
final class AvroInput {
    private byte[] b;
    private int pos;
    private int start;
    private int end;

    void reset(byte[] bytes, int from, int to) {
        this.b = bytes;
        this.pos = from;
        this.start = from;
        this.end = to;
    }

    byte[] bytes() {
        return b;
    }

    int position() {
        return pos;
    }

    /** Bytes read so far, counted from the datum's first byte. */
    int offset() {
        return pos - start;
    }

    /** Bytes of the datum. */
    int length() {
        return end - start;
    }

    boolean atEnd() {
        return pos == end;
    }

    int remaining() {
        return end - pos;
    }

    private AvroDataException truncated(int needed) throws AvroDataException {
        throw new AvroDataException(
                "the record ends inside the value (it needs "
                        + needed
                        + " more bytes at byte "
                        + offset()
                        + " of "
                        + length()
                        + ")");
    }

    /** An Avro int: a zig-zag varint of at most 5 bytes that fits 32 bits. */
    int readInt() throws AvroDataException {
        int at = pos;
        long v = readVarint(5);
        long decoded = (v >>> 1) ^ -(v & 1);
        if (decoded != (int) decoded) {
            throw new AvroDataException(
                    "malformed int at byte " + (at - start) + ": the varint exceeds 32 bits");
        }
        return (int) decoded;
    }

    /** An Avro long: a zig-zag varint of at most 10 bytes. */
    long readLong() throws AvroDataException {
        long v = readVarint(10);
        return (v >>> 1) ^ -(v & 1);
    }

    private long readVarint(int maxBytes) throws AvroDataException {
        long v = 0;
        int shift = 0;
        int at = pos;
        for (int i = 0; i < maxBytes; i++) {
            if (pos == end) {
                truncated(1);
            }
            int x = b[pos++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
            shift += 7;
        }
        throw new AvroDataException(
                "malformed varint at byte "
                        + (at - start)
                        + ": longer than "
                        + maxBytes
                        + " bytes");
    }

    boolean readBoolean() throws AvroDataException {
        if (pos == end) {
            truncated(1);
        }
        int x = b[pos];
        if (x != 0 && x != 1) {
            throw new AvroDataException(
                    "malformed boolean at byte " + offset() + ": " + (x & 0xFF) + " is not 0 or 1");
        }
        pos++;
        return x == 1;
    }

    float readFloat() throws AvroDataException {
        return Float.intBitsToFloat(readFixedInt());
    }

    double readDouble() throws AvroDataException {
        require(8);
        long v =
                (b[pos] & 0xFFL)
                        | (b[pos + 1] & 0xFFL) << 8
                        | (b[pos + 2] & 0xFFL) << 16
                        | (b[pos + 3] & 0xFFL) << 24
                        | (b[pos + 4] & 0xFFL) << 32
                        | (b[pos + 5] & 0xFFL) << 40
                        | (b[pos + 6] & 0xFFL) << 48
                        | (b[pos + 7] & 0xFFL) << 56;
        pos += 8;
        return Double.longBitsToDouble(v);
    }

    /** Four bytes, little-endian (a float's bits, a duration's parts). */
    int readFixedInt() throws AvroDataException {
        require(4);
        int v =
                (b[pos] & 0xFF)
                        | (b[pos + 1] & 0xFF) << 8
                        | (b[pos + 2] & 0xFF) << 16
                        | (b[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    /**
     * The length of a bytes or string value, checked against what the record holds; the value
     * starts at {@link #position()}.
     */
    int readLength() throws AvroDataException {
        int at = pos;
        long n = readLong();
        if (n < 0) {
            throw new AvroDataException("malformed length at byte " + (at - start) + ": " + n);
        }
        if (n > end - pos) {
            truncated((int) Math.min(Integer.MAX_VALUE, n - (end - pos)));
        }
        return (int) n;
    }

    /** Makes sure {@code n} more bytes are there. */
    void require(int n) throws AvroDataException {
        if (end - pos < n) {
            truncated(n - (end - pos));
        }
    }

    void skip(int n) throws AvroDataException {
        require(n);
        pos += n;
    }

    /**
     * The item count of the next block of an array or map (0 ends it). A negative count is followed
     * by the block's size in bytes, which {@link #blockBytes} returns until the next call.
     */
    long readBlockCount() throws AvroDataException {
        int at = pos;
        long n = readLong();
        blockBytes = -1;
        if (n < 0) {
            if (n == Long.MIN_VALUE) {
                throw new AvroDataException("malformed block count at byte " + (at - start));
            }
            n = -n;
            long size = readLong();
            if (size < 0 || size > end - pos) {
                throw new AvroDataException(
                        "malformed block size at byte "
                                + (at - start)
                                + ": "
                                + size
                                + " bytes, "
                                + (end - pos)
                                + " left");
            }
            blockBytes = size;
        }
        // Every item takes at least one byte, except those of a zero-size type (null, an empty
        // record): the count cannot be checked against the bytes left for those.
        return n;
    }

    /** The byte size the last block header gave, or -1 when it gave none. */
    long blockBytes() {
        return blockBytes;
    }

    private long blockBytes = -1;
}
