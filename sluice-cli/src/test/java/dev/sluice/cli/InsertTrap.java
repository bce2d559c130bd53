package dev.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback proxy in front of a real server's native port that springs once, at the n-th INSERT
 * passing through it, at one of two moments a test could not hit from outside:
 *
 * <ul>
 *   <li>{@link Moment#HEADER}: the server has started the INSERT and is sending its header (the
 *       first answer to a Query packet whose text holds {@code INSERT INTO}). The action runs
 *       before the header is forwarded, so the client sends its block after it — e.g. into a server
 *       just stopped with SIGSTOP.
 *   <li>{@link Moment#ACK}: the server wrote the block and answers (the next bytes it sends after
 *       the header). The action runs before they are forwarded; with {@code cut} the connection is
 *       then reset, so the acknowledgement never arrives.
 * </ul>
 *
 * Everything else is forwarded untouched, and new connections keep working.
 */
final class InsertTrap implements AutoCloseable {
    enum Moment {
        HEADER,
        ACK
    }

    private static final byte[] INSERT = "INSERT INTO".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final int insert;
    private final Moment moment;
    private final Runnable action;
    private final boolean cut;
    private final AtomicInteger headers = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean sprung;

    /**
     * @param insert which INSERT (1-based, counted over all connections)
     * @param cut reset the connection after the action instead of forwarding what triggered it
     */
    InsertTrap(int port, int insert, Moment moment, Runnable action, boolean cut)
            throws IOException {
        this.target = new InetSocketAddress("127.0.0.1", port);
        this.insert = insert;
        this.moment = moment;
        this.action = action;
        this.cut = cut;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "insert-trap-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** True once the action ran. */
    boolean sprung() {
        return sprung;
    }

    /** The URL of the proxied server. */
    String url() {
        return "clickhouse://default@127.0.0.1:" + port() + "/default";
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            Socket server = new Socket();
            try {
                server.connect(target, 5000);
            } catch (IOException e) {
                closeQuietly(client); // the server is down: refuse, as it would
                continue;
            }
            sockets.add(client);
            sockets.add(server);
            Connection c = new Connection(client, server);
            start(() -> c.pump(client, server, true));
            start(() -> c.pump(server, client, false));
        }
    }

    private static void start(Runnable r) {
        Thread t = new Thread(r, "insert-trap-pump");
        t.setDaemon(true);
        t.start();
    }

    /** One proxied connection and where its INSERT is. */
    private final class Connection {
        private final Socket client;
        private final Socket server;

        /** The client sent an INSERT's Query packet; its header is the server's next answer. */
        private volatile boolean insertSent;

        /** This connection carries the INSERT the trap waits for, past its header. */
        private volatile boolean armed;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void pump(Socket from, Socket to, boolean toServer) {
            byte[] buf = new byte[64 << 10];
            try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    if (toServer && contains(buf, n, INSERT)) {
                        insertSent = true;
                    }
                    if (!toServer && n > 0 && !sprung && spring()) {
                        if (cut) {
                            reset();
                            return;
                        }
                    }
                    out.write(buf, 0, n);
                }
            } catch (IOException e) {
                // cut, or the other side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }

        /** Called for each chunk from the server: true when the action ran on it. */
        private boolean spring() {
            if (armed) {
                if (moment == Moment.ACK) {
                    fire();
                    return true;
                }
                return false;
            }
            if (!insertSent) {
                return false;
            }
            insertSent = false;
            if (headers.incrementAndGet() == insert) {
                if (moment == Moment.HEADER) {
                    fire();
                    return true;
                }
                armed = true;
            }
            return false;
        }

        private void reset() {
            for (Socket s : List.of(client, server)) {
                try {
                    s.setSoLinger(true, 0);
                } catch (IOException ignored) {
                    // already closed
                }
                closeQuietly(s);
            }
        }
    }

    private static boolean contains(byte[] buf, int n, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= n; i++) {
            for (int j = 0; j < what.length; j++) {
                if (buf[i + j] != what[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private synchronized void fire() {
        if (!sprung) {
            sprung = true;
            action.run();
        }
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
        listener.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
