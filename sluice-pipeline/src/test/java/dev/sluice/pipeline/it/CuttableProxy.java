package dev.sluice.pipeline.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of the server whose connections a test can cut at any moment, as a network
 * failure would; new connections go through again.
 */
final class CuttableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();

    CuttableProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    int accepted() {
        return accepted.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(target, 5000);
                sockets.add(client);
                sockets.add(server);
                accepted.incrementAndGet();
                pipe(client, server);
                pipe(server, client);
            } catch (IOException e) {
                // the listener closed, or the server refused: the client sees its connection fail
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buf = new byte[64 << 10];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                for (int n; (n = in.read(buf)) >= 0; ) {
                                    out.write(buf, 0, n);
                                }
                            } catch (IOException e) {
                                // cut
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        "proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    /** Drops every open connection, mid-packet if need be. */
    void cut() {
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** The server goes away for good: no more connections, the open ones dropped. */
    void goAway() throws IOException {
        close();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cut();
    }
}
