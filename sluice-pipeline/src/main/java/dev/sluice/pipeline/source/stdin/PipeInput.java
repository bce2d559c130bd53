package dev.sluice.pipeline.source.stdin;

import dev.sluice.pipeline.source.framing.ChunkInput;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stream that may block for as long as its writer likes (a pipe), read on a thread of its own:
 * the source's poll must never wait longer than it was told (a linger timer depends on it), and a
 * blocking read cannot be given a timeout. The thread hands over filled buffers through a small
 * queue, so at most {@value #BUFFERS} buffers exist and a paused pipeline stops the thread too.
 */
final class PipeInput implements ChunkInput {
    private static final int BUFFERS = 3;

    /** A filled buffer, the end of the stream ({@code length < 0}), or a read failure. */
    private record Chunk(byte[] bytes, int length, IOException failure) {}

    private static final Chunk END = new Chunk(null, -1, null);

    private final BlockingQueue<Chunk> filled = new ArrayBlockingQueue<>(BUFFERS + 1);
    private final BlockingQueue<byte[]> empty = new ArrayBlockingQueue<>(BUFFERS);
    private final Thread reader;
    private Chunk current;
    private int offset;
    private volatile long consumed;

    PipeInput(InputStream in, int bufferBytes, String threadName) {
        for (int i = 0; i < BUFFERS; i++) {
            empty.add(new byte[bufferBytes]);
        }
        reader = new Thread(() -> pump(in), threadName);
        reader.setDaemon(true);
        reader.start();
    }

    private void pump(InputStream in) {
        try {
            while (true) {
                byte[] buffer = empty.take();
                int n = in.read(buffer, 0, buffer.length);
                if (n < 0) {
                    filled.put(END);
                    return;
                }
                // Take what is already there too, without blocking: fewer, bigger batches.
                while (n < buffer.length && in.available() > 0) {
                    int more = in.read(buffer, n, buffer.length - n);
                    if (more < 0) {
                        break;
                    }
                    n += more;
                }
                filled.put(new Chunk(buffer, n, null));
            }
        } catch (IOException e) {
            filled.offer(new Chunk(null, -1, e));
        } catch (InterruptedException e) {
            // Closed: the source is gone.
        }
    }

    @Override
    public int read(byte[] b, int off, int len, long waitNanos) throws IOException {
        int total = 0;
        while (total < len) {
            if (current != null && current.length < 0) {
                if (total > 0) {
                    break;
                }
                if (current.failure != null) {
                    IOException e = current.failure;
                    current = END;
                    throw e;
                }
                return -1;
            }
            if (current == null || offset == current.length) {
                if (!next(total == 0 ? waitNanos : 0)) {
                    break;
                }
                continue;
            }
            int n = Math.min(len - total, current.length - offset);
            System.arraycopy(current.bytes, offset, b, off + total, n);
            offset += n;
            total += n;
        }
        consumed += total;
        return total;
    }

    /** Recycles the used-up buffer and takes the next one, waiting up to {@code waitNanos}. */
    private boolean next(long waitNanos) {
        if (current != null) {
            empty.add(current.bytes);
        }
        current = null;
        offset = 0;
        try {
            current = waitNanos > 0 ? filled.poll(waitNanos, TimeUnit.NANOSECONDS) : filled.poll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return current != null;
    }

    @Override
    public long skip(long n) throws IOException {
        throw new UnsupportedOperationException("a pipe cannot be resumed");
    }

    @Override
    public long consumed() {
        return consumed;
    }

    @Override
    public void close() {
        reader.interrupt();
    }
}
