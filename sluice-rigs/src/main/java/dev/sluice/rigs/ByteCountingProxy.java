package dev.sluice.rigs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP relay that counts the bytes each way: how InsertBench measures bytes on the wire
 * the same way for every client (18.16 keeps no network byte counters in query_log).
 *
 * <p>It listens on 127.0.0.1 only, relays each accepted connection to one target with two threads,
 * and closes everything on {@link #close()}. It adds copies and latency, so timed runs go to the
 * server directly; the proxy is for separate counting runs.
 */
public final class ByteCountingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final AtomicLong upstream = new AtomicLong();
    private final AtomicLong downstream = new AtomicLong();
    private final Thread acceptor;
    private volatile boolean closed;

    public ByteCountingProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.listener = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Bytes clients sent to the server so far. */
    public long upstreamBytes() {
        return upstream.get();
    }

    /** Bytes the server sent back so far. */
    public long downstreamBytes() {
        return downstream.get();
    }

    public void resetCounters() {
        upstream.set(0);
        downstream.set(0);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.setTcpNoDelay(true);
                client.setTcpNoDelay(true);
                server.connect(target, 5000);
                pump(client, server, upstream, "proxy-up");
                pump(server, client, downstream, "proxy-down");
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("proxy: " + e.getMessage());
                }
            }
        }
    }

    private static void pump(Socket from, Socket to, AtomicLong counter, String name) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buf = new byte[256 << 10];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                int n;
                                while ((n = in.read(buf)) >= 0) {
                                    out.write(buf, 0, n);
                                    counter.addAndGet(n);
                                }
                            } catch (IOException ignored) {
                                // one side closed: close both below
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
    }
}
