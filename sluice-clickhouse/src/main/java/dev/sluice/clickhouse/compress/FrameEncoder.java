package dev.sluice.clickhouse.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.sluice.clickhouse.io.WireOutput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.nio.ByteOrder;
import java.util.Objects;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Writes bytes as ClickHouse compressed frames (layout in {@link dev.sluice.clickhouse.compress}).
 *
 * <p>Each frame is compressed straight into the target {@link WireOutput}'s array after its 25-byte
 * prefix, which is filled in once the payload size is known; nothing is copied or allocated per
 * frame apart from the checksum's small result record.
 *
 * <p>A ZSTD encoder holds a native compression context: {@link #close()} frees it (a cleaner frees
 * it too if the encoder is dropped unclosed). Not thread-safe.
 */
public final class FrameEncoder implements AutoCloseable {

    /**
     * Uncompressed bytes per frame at most: ClickHouse's own writer buffers 1 MiB per frame, so
     * frames of this size are what every server version has been tested with.
     */
    public static final int MAX_FRAME_INPUT = 1 << 20;

    static final int CHECKSUM_SIZE = 16;

    /** Method byte plus the two UInt32 sizes; the compressed size field counts these too. */
    static final int HEADER_SIZE = 9;

    static final int PREFIX_SIZE = CHECKSUM_SIZE + HEADER_SIZE;

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final Cleaner CLEANER = Cleaner.create();

    private final CompressionMethod method;
    private final LZ4Compressor lz4;
    private final ZstdCompressCtx zstd;
    private final Cleaner.Cleanable zstdCleanup;

    /**
     * @param zstdLevel the zstd level for {@link CompressionMethod#ZSTD} (ClickHouse's own default
     *     for network_zstd_compression_level is 1); ignored by the other methods
     */
    public FrameEncoder(CompressionMethod method, int zstdLevel) {
        this.method = Objects.requireNonNull(method, "method");
        if (method == CompressionMethod.ZSTD) {
            int min = Zstd.minCompressionLevel();
            int max = Zstd.maxCompressionLevel();
            if (zstdLevel < min || zstdLevel > max) {
                throw new IllegalArgumentException(
                        "zstd level " + zstdLevel + " outside " + min + ".." + max);
            }
            ZstdCompressCtx ctx = new ZstdCompressCtx();
            ctx.setLevel(zstdLevel);
            this.zstd = ctx;
            this.zstdCleanup = CLEANER.register(this, ctx::close);
            this.lz4 = null;
        } else {
            this.zstd = null;
            this.zstdCleanup = null;
            // JNI's LZ4_compress_default when the native library loads, as ClickHouse uses.
            this.lz4 =
                    method == CompressionMethod.LZ4
                            ? LZ4Factory.fastestInstance().fastCompressor()
                            : null;
        }
    }

    public CompressionMethod method() {
        return method;
    }

    /**
     * Appends {@code src[off .. off+len)} to {@code out} as one frame per {@link #MAX_FRAME_INPUT}
     * bytes; nothing for {@code len == 0}, since ClickHouse rejects empty frames.
     */
    public void encode(byte[] src, int off, int len, WireOutput out) {
        Objects.checkFromIndexSize(off, len, src.length);
        while (len > 0) {
            int n = Math.min(len, MAX_FRAME_INPUT);
            encodeFrame(src, off, n, out);
            off += n;
            len -= n;
        }
    }

    /**
     * A drain that encodes every flush of a draining {@link WireOutput} into {@code target}; with a
     * capacity of {@link #MAX_FRAME_INPUT} each flush becomes exactly one frame. The target must
     * not be the draining buffer itself.
     */
    public WireOutput.Drain drainInto(WireOutput target) {
        Objects.requireNonNull(target, "target");
        return (buf, off, len) -> encode(buf, off, len, target);
    }

    private void encodeFrame(byte[] src, int off, int len, WireOutput out) {
        out.ensureWritable(PREFIX_SIZE + maxPayload(len));
        byte[] dst = out.array();
        int start = out.position();
        int payloadAt = start + PREFIX_SIZE;
        int room = dst.length - payloadAt;
        int payload =
                switch (method) {
                    case NONE -> {
                        System.arraycopy(src, off, dst, payloadAt, len);
                        yield len;
                    }
                    case LZ4 -> lz4.compress(src, off, len, dst, payloadAt, room);
                    case ZSTD -> zstd.compressByteArray(dst, payloadAt, room, src, off, len);
                };
        int headerAt = start + CHECKSUM_SIZE;
        dst[headerAt] = (byte) method.methodByte();
        INT_LE.set(dst, headerAt + 1, HEADER_SIZE + payload);
        INT_LE.set(dst, headerAt + 5, len);
        CityHash128.Hash128 h = CityHash128.hash(dst, headerAt, HEADER_SIZE + payload);
        LONG_LE.set(dst, start, h.low());
        LONG_LE.set(dst, start + 8, h.high());
        out.advance(PREFIX_SIZE + payload);
    }

    private int maxPayload(int len) {
        return switch (method) {
            case NONE -> len;
            case LZ4 -> lz4.maxCompressedLength(len);
            case ZSTD -> (int) Zstd.compressBound(len);
        };
    }

    @Override
    public void close() {
        if (zstdCleanup != null) {
            zstdCleanup.clean();
        }
    }
}
