package dev.sluice.pipeline.writer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of the server that a test can stall: while stalled, the server's answers are
 * held back (the server got the INSERT; the client sees no acknowledgement), as a slow network or a
 * stalled server would; {@link #resume()} lets them through. {@link #refuse()} makes the server
 * unreachable.
 */
final class StallingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile boolean stalled;
    private volatile boolean refusing;

    StallingProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "stalling-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** The server's answers are held back from now on. */
    void stall() {
        stalled = true;
    }

    void resume() {
        synchronized (gate) {
            stalled = false;
            gate.notifyAll();
        }
    }

    /** New connections fail and open ones are dropped, as when the server is gone. */
    void refuse() {
        refusing = true;
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (refusing) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket();
                server.connect(target, 5000);
                sockets.add(client);
                sockets.add(server);
                pipe(client, server, false);
                pipe(server, client, true);
            } catch (IOException e) {
                // the listener closed, or the server refused
            }
        }
    }

    private void pipe(Socket from, Socket to, boolean answers) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buf = new byte[64 << 10];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                for (int n; (n = in.read(buf)) >= 0; ) {
                                    if (answers) {
                                        holdWhileStalled();
                                    }
                                    out.write(buf, 0, n);
                                }
                            } catch (IOException | InterruptedException e) {
                                // cut
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        "stalling-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    private void holdWhileStalled() throws InterruptedException {
        synchronized (gate) {
            while (stalled) {
                gate.wait();
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        resume();
        listener.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
