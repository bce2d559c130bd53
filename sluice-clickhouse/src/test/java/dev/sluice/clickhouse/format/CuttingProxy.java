package dev.sluice.clickhouse.format;

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
 * A TCP relay to the server that drops every connection once a given number of bytes has gone to
 * the server: a server or proxy closing in the middle of a request body.
 */
final class CuttingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final AtomicLong toServer = new AtomicLong();
    private volatile long cutAt = Long.MAX_VALUE;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    CuttingProxy(String host, int port) throws IOException {
        this.host = host;
        this.port = port;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "cutting-proxy");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    long bytesToServer() {
        return toServer.get();
    }

    void cutAfter(long totalBytes) {
        cutAt = totalBytes;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(host, port), 2000);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, true);
                pump(server, client, false);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean counted) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buf = new byte[8192];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                int n;
                                while ((n = in.read(buf)) > 0) {
                                    if (counted && toServer.addAndGet(n) >= cutAt) {
                                        break;
                                    }
                                    out.write(buf, 0, n);
                                }
                            } catch (IOException ignored) {
                                // the other side closed
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        "cutting-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
