package dev.sluice.pipeline.source.file;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import dev.sluice.pipeline.source.framing.ChunkInput;
import dev.sluice.pipeline.source.framing.StreamInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.zip.GZIPInputStream;

/** Opens a file as the bytes to frame: decompressed on the fly when it is compressed. */
final class FileInputs {
    /** The decompressor's input buffer: big enough that compressed reads are few. */
    private static final int COMPRESSED_BUFFER = 64 * 1024;

    private FileInputs() {}

    /**
     * @param follow plain files only: keep waiting at the end for more (a compressed file cannot be
     *     followed; it is read once to its end)
     */
    static ChunkInput open(InputFile file, boolean follow) throws IOException {
        if (file.compression() == Compression.NONE) {
            return new PlainFileInput(file.path(), follow);
        }
        CountingInputStream raw = new CountingInputStream(Files.newInputStream(file.path()));
        try {
            InputStream decompressed =
                    file.compression() == Compression.GZIP
                            ? new GZIPInputStream(raw, COMPRESSED_BUFFER)
                            : new ZstdInputStreamNoFinalizer(raw);
            return new StreamInput(decompressed, raw::count);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** The bytes of a plain file before {@code end} (a chunk's end; reading starts at 0). */
    static ChunkInput openRange(InputFile file, long end) {
        return new PlainFileInput(file.path(), false, end);
    }

    /** An input that fails on first use: a file that could not be opened is a positioned error. */
    static ChunkInput failed(IOException cause) {
        return new ChunkInput() {
            @Override
            public int read(byte[] b, int off, int len, long waitNanos) throws IOException {
                throw cause;
            }

            @Override
            public long skip(long n) throws IOException {
                throw cause;
            }

            @Override
            public long consumed() {
                return 0;
            }

            @Override
            public void close() {}
        };
    }
}
