package dev.sluice.clickhouse.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of the real server that can cut or stall connections on demand, to
 * see how the client behaves when the network or the server fails mid-request.
 */
public final class FaultyProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong bytesToServer = new AtomicLong();
    private volatile boolean stalled;
    private volatile boolean repliesHeld;
    private volatile boolean closed;

    /** Cut all connections once this many bytes went to the server (Long.MAX_VALUE: never). */
    private volatile long cutAfterBytes = Long.MAX_VALUE;

    /** Stall once this many bytes went to the server (Long.MAX_VALUE: never). */
    private volatile long stallAfterBytes = Long.MAX_VALUE;

    private volatile long holdRepliesAfterBytes = Long.MAX_VALUE;

    public FaultyProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "faulty-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    public long bytesToServer() {
        return bytesToServer.get();
    }

    /** Stops forwarding in both directions without closing anything: a hung peer. */
    public void stall() {
        stalled = true;
    }

    /**
     * Keeps forwarding to the server but holds back what it answers: the server does its work and
     * its acknowledgement never arrives (until {@link #releaseReplies()} or a cut).
     */
    public void holdReplies() {
        repliesHeld = true;
    }

    /**
     * Holds replies like {@link #holdReplies()} from the moment {@code bytes} in all go to the
     * server, set before those bytes are forwarded: the server cannot answer them first, however
     * the threads are scheduled.
     */
    public void holdRepliesAfter(long bytes) {
        holdRepliesAfterBytes = bytes;
    }

    public void releaseReplies() {
        repliesHeld = false;
    }

    public void cutAfter(long bytes) {
        cutAfterBytes = bytes;
    }

    /** Stalls like {@link #stall()} once {@code bytes} in all went to the server. */
    public void stallAfter(long bytes) {
        stallAfterBytes = bytes;
    }

    /** Closes every connection abruptly. */
    public void cutAll() {
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0); // RST, like a crashed peer
                s.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(target, 5000);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, true);
                pump(server, client, false);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean toServer) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buf = new byte[64 << 10];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                int n;
                                while ((n = in.read(buf)) >= 0) {
                                    while ((stalled || (repliesHeld && !toServer))
                                            && !closed
                                            && !to.isClosed()) {
                                        Thread.sleep(50);
                                    }
                                    if (toServer
                                            && bytesToServer.get() + n >= holdRepliesAfterBytes) {
                                        repliesHeld = true;
                                    }
                                    out.write(buf, 0, n);
                                    long total = toServer ? bytesToServer.addAndGet(n) : 0;
                                    if (toServer && total >= cutAfterBytes) {
                                        cutAll();
                                        return;
                                    }
                                    if (toServer && total >= stallAfterBytes) {
                                        stalled = true;
                                    }
                                }
                            } catch (IOException | InterruptedException e) {
                                // connection cut: both sides see it
                            } finally {
                                if (!stalled) {
                                    closeQuietly(from);
                                    closeQuietly(to);
                                }
                            }
                        },
                        "faulty-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        stalled = false;
        listener.close();
        cutAll();
    }
}
