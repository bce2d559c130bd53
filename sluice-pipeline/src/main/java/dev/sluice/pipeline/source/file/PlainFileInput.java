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
    private FileChannel channel;
    private long offset;

    PlainFileInput(Path path, boolean follow) {
        this.path = path;
        this.follow = follow;
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
        FileChannel c = channel();
        int n = c.read(ByteBuffer.wrap(b, off, len));
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
        long size = channel().size();
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
