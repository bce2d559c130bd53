package dev.sluice.clickhouse.net;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A connected TCP socket, optionally with TLS layered on it, whose waits are all bounded:
 *
 * <ul>
 *   <li>opening it (TCP connect, then the TLS handshake) by the open timeout;
 *   <li>each read by {@code SO_TIMEOUT} (the read timeout);
 *   <li>each write by the write timeout, and a whole operation by {@link #beginOperation}: Java's
 *       blocking writes cannot time out, so a {@link Watchdog} timer armed around each write closes
 *       the TCP socket when it fires, which fails the blocked write at once.
 * </ul>
 *
 * <p>The watchdog closes the TCP socket, never the TLS one: {@code SSLSocket.close()} sends a
 * close_notify under the same lock a blocked writer holds, so it would wait for the very write it
 * is meant to end. After {@link #abort}, every read and write fails with a {@link
 * SocketAbortedException} carrying the reason.
 *
 * <p>One thread reads and writes at a time (the connection's); {@link #abort} may come from any
 * thread.
 */
public final class GuardedSocket implements Closeable {
    /** Opens TLS over a connected TCP socket and completes its handshake. */
    @FunctionalInterface
    public interface Layer {
        Socket over(Socket tcp) throws IOException;
    }

    /**
     * How long each wait may last; zero means no limit.
     *
     * @param open TCP connect and the TLS handshake together
     * @param read one read ({@code SO_TIMEOUT})
     * @param write one write of at most about a MiB
     */
    public record Timeouts(Duration open, Duration read, Duration write) {}

    /**
     * How long a TLS poll waits to decrypt records already received (see {@link #inputPending}).
     */
    private static final int TLS_POLL_MILLIS = 2;

    private final Socket tcp;
    private final Socket socket;
    private final String peer;
    private final InputStream socketIn;
    private final OutputStream socketOut;
    private final int readTimeoutMillis;
    private final long writeTimeoutNanos;
    private final Runnable writeExpired;
    private final AtomicReference<String> abortReason;
    private final InputStream input = new Input();
    private Watchdog.Timer operationTimer;

    // The running operation's number (0: none), so that a timer firing just as its operation
    // ended does not abort the next one.
    private volatile long activeOperation;
    private long operations;

    // Bytes a TLS poll decrypted ahead of the reader; served first.
    private final byte[] peeked = new byte[16 << 10];
    private int peekPos;
    private int peekEnd;
    private boolean peekedEof;

    private GuardedSocket(
            Socket tcp,
            Socket socket,
            String peer,
            Timeouts timeouts,
            AtomicReference<String> abortReason)
            throws IOException {
        this.tcp = tcp;
        this.socket = socket;
        this.peer = peer;
        this.socketIn = socket.getInputStream();
        this.socketOut = socket.getOutputStream();
        this.readTimeoutMillis = millis(timeouts.read());
        this.writeTimeoutNanos = nanos(timeouts.write());
        this.abortReason = abortReason;
        long writeMillis = timeouts.write().toMillis();
        this.writeExpired =
                () ->
                        abort(
                                "ClickHouse at "
                                        + peer
                                        + " took none of the data for "
                                        + writeMillis
                                        + " ms (write_timeout)");
    }

    /**
     * Connects to {@code host:port} and layers TLS when {@code tls} is not null, all within {@code
     * timeouts.open()}; then the open deadline goes on bounding the caller's own handshake until it
     * calls {@link #endOperation()}.
     *
     * @throws SocketTimeoutException when the open deadline passed
     * @throws IOException when the connection failed
     */
    public static GuardedSocket connect(String host, int port, Timeouts timeouts, Layer tls)
            throws IOException {
        String peer = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        Socket tcp = new Socket();
        AtomicReference<String> reason = new AtomicReference<>();
        long openMillis = timeouts.open().toMillis();
        String openExpired =
                "no connection to ClickHouse at "
                        + peer
                        + " within "
                        + openMillis
                        + " ms (connect_timeout: TCP connect, TLS and handshake)";
        Watchdog.Timer open = null;
        if (openMillis > 0) {
            open =
                    Watchdog.schedule(
                            nanos(timeouts.open()),
                            () -> {
                                reason.compareAndSet(null, openExpired);
                                closeQuietly(tcp);
                            });
        }
        try {
            tcp.setTcpNoDelay(true);
            tcp.setKeepAlive(true);
            tcp.connect(new InetSocketAddress(host, port), millis(timeouts.open()));
            tcp.setSoTimeout(millis(timeouts.read()));
            Socket layered = tls == null ? tcp : tls.over(tcp);
            GuardedSocket s = new GuardedSocket(tcp, layered, peer, timeouts, reason);
            s.operationTimer = open; // the caller's handshake runs under the same deadline
            return s;
        } catch (SocketTimeoutException e) {
            cancel(open);
            closeQuietly(tcp);
            throw new SocketTimeoutException(openExpired);
        } catch (IOException | RuntimeException e) {
            cancel(open);
            closeQuietly(tcp);
            String why = reason.get();
            if (why != null) {
                throw new SocketTimeoutException(why);
            }
            throw e;
        }
    }

    /** {@code host:port}, for messages. */
    public String peer() {
        return peer;
    }

    public boolean isTls() {
        return socket != tcp;
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) tcp.getLocalSocketAddress();
    }

    /** The reads of this socket; a read after {@link #abort} fails with its reason. */
    public InputStream input() {
        return input;
    }

    /** Writes all of {@code b[off, off+len)}, failing once the write timeout passes. */
    public void write(byte[] b, int off, int len) throws IOException {
        Watchdog.Timer t =
                writeTimeoutNanos > 0 ? Watchdog.schedule(writeTimeoutNanos, writeExpired) : null;
        try {
            socketOut.write(b, off, len);
        } catch (IOException e) {
            throw explained(e);
        } finally {
            cancel(t);
        }
    }

    /**
     * Starts a deadline for a whole operation: when {@code timeout} passes before {@link
     * #endOperation()}, the socket is aborted with {@code reason}. Zero means no deadline. Replaces
     * any deadline already running.
     */
    public void beginOperation(Duration timeout, String reason) {
        endOperation();
        if (!timeout.isZero() && !timeout.isNegative()) {
            long id = ++operations;
            activeOperation = id;
            operationTimer =
                    Watchdog.schedule(
                            nanos(timeout),
                            () -> {
                                if (activeOperation == id) {
                                    abort(reason);
                                }
                            });
        }
    }

    public void endOperation() {
        activeOperation = 0;
        cancel(operationTimer);
        operationTimer = null;
    }

    /**
     * Whether the peer sent bytes not read yet, without waiting for more. Plain sockets count what
     * the kernel holds. {@code SSLSocket.available()} counts only bytes already decrypted, so when
     * encrypted bytes wait in the kernel they are decrypted here with a read that gives up after a
     * few milliseconds (they may be a TLS message with no data, such as a key update); the JDK
     * keeps a partly read record across that timeout. What the read returns is served to the next
     * reader.
     */
    public boolean inputPending() throws IOException {
        if (peekPos < peekEnd || peekedEof) {
            return true;
        }
        try {
            if (socketIn.available() > 0) {
                return true;
            }
            if (!isTls() || tcp.getInputStream().available() == 0) {
                return false;
            }
            socket.setSoTimeout(TLS_POLL_MILLIS);
            try {
                int n = socketIn.read(peeked, 0, peeked.length);
                if (n < 0) {
                    peekedEof = true;
                    return true;
                }
                peekPos = 0;
                peekEnd = n;
                return n > 0;
            } catch (SocketTimeoutException e) {
                return false;
            } finally {
                socket.setSoTimeout(readTimeoutMillis);
            }
        } catch (IOException e) {
            throw explained(e);
        }
    }

    /**
     * For a socket kept idle between HTTP requests: false when the peer closed it or sent something
     * unasked — found with a read that waits at most a millisecond, since a plain socket cannot
     * tell a close from silence without reading.
     */
    public boolean stillOpenWhileIdle() {
        if (tcp.isClosed() || peekPos < peekEnd || peekedEof || abortReason.get() != null) {
            return false;
        }
        try {
            if (socketIn.available() > 0) {
                return false;
            }
            socket.setSoTimeout(1);
            try {
                int n = socketIn.read(peeked, 0, peeked.length);
                if (n < 0) {
                    peekedEof = true;
                    return false;
                }
                peekPos = 0;
                peekEnd = n;
                return n == 0;
            } catch (SocketTimeoutException e) {
                return true; // silence: still open
            } finally {
                socket.setSoTimeout(readTimeoutMillis);
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** Changes the read timeout for the next reads (0: wait forever). */
    public void setReadTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout(millis(timeout));
    }

    /** Restores the configured read timeout. */
    public void restoreReadTimeout() throws IOException {
        socket.setSoTimeout(readTimeoutMillis);
    }

    /**
     * Closes the TCP socket from any thread, so that a blocked read or write fails at once with
     * {@code reason}; the first reason given is kept.
     */
    public void abort(String reason) {
        abortReason.compareAndSet(null, reason);
        closeQuietly(tcp);
    }

    /** Why the socket was aborted, or null. */
    public String abortReason() {
        return abortReason.get();
    }

    public boolean isClosed() {
        return tcp.isClosed();
    }

    /**
     * Closes the socket; a TLS close (which writes a close_notify) is bounded by the write timeout.
     */
    @Override
    public void close() {
        endOperation();
        if (abortReason.get() != null || !isTls()) {
            closeQuietly(tcp);
            return;
        }
        Watchdog.Timer t =
                writeTimeoutNanos > 0
                        ? Watchdog.schedule(writeTimeoutNanos, () -> closeQuietly(tcp))
                        : null;
        try {
            closeQuietly(socket);
        } finally {
            cancel(t);
            closeQuietly(tcp);
        }
    }

    private IOException explained(IOException e) {
        String why = abortReason.get();
        return why == null || e instanceof SocketAbortedException
                ? e
                : new SocketAbortedException(why, e);
    }

    private final class Input extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (peekPos < peekEnd) {
                int n = Math.min(len, peekEnd - peekPos);
                System.arraycopy(peeked, peekPos, b, off, n);
                peekPos += n;
                return n;
            }
            if (peekedEof) {
                return -1;
            }
            try {
                return socketIn.read(b, off, len);
            } catch (IOException e) {
                throw explained(e);
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return (peekEnd - peekPos) + socketIn.available();
            } catch (IOException e) {
                throw explained(e);
            }
        }
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, d.toMillis()));
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static void cancel(Watchdog.Timer t) {
        if (t != null) {
            t.cancel();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // a socket that will not close is closed enough
        }
    }
}
