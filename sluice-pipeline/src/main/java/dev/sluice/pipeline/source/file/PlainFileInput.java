package dev.sluice.pipeline.source.file;

import dev.sluice.pipeline.source.framing.ChunkInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An uncompressed file, read through a channel: a resume seeks instead of reading. Followed (for
 * {@code run}), the end of the file is "no data yet" rather than the end of input, the channel is
 * closed while waiting (a directory of many files holds no descriptors) and reopened at the same
 * offset; a file that shrinks below what was read was truncated or replaced, which is an error.
 */
final class PlainFileInput implements ChunkInput {
    private final Path path;
    private final boolean follow;
    private final long end;
    private FileChannel channel;
    private long offset;

    PlainFileInput(Path path, boolean follow) {
        this(path, follow, Long.MAX_VALUE);
    }

    /**
     * @param end where the input ends for this reader (a chunk's end, {@link ChunkedFile}), or
     *     {@code Long.MAX_VALUE} for the file's end
     */
    PlainFileInput(Path path, boolean follow, long end) {
        this.path = path;
        this.follow = follow;
        this.end = end;
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.READ);
            if (offset > 0) {
                // Only when needed: a named pipe (a shell's <(...)) reads fine but cannot seek.
                channel.position(offset);
            }
        }
        return channel;
    }

    @Override
    public int read(byte[] b, int off, int len, long waitNanos) throws IOException {
        if (offset >= end) {
            return -1;
        }
        FileChannel c = channel();
        int n = c.read(ByteBuffer.wrap(b, off, (int) Math.min(len, end - offset)));
        if (n > 0) {
            offset += n;
            return n;
        }
        if (!follow) {
            return -1;
        }
        if (c.size() < offset) {
            throw new IOException(
                    path
                            + " shrank to "
                            + c.size()
                            + " bytes after "
                            + offset
                            + " were read: it was truncated or replaced, so it is not followed"
                            + " further");
        }
        close();
        return 0;
    }

    @Override
    public long skip(long n) throws IOException {
        long size = Math.min(channel().size(), end);
        long skipped = Math.max(0, Math.min(n, size - offset));
        offset += skipped;
        channel.position(offset);
        return skipped;
    }

    @Override
    public long consumed() {
        return offset;
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
