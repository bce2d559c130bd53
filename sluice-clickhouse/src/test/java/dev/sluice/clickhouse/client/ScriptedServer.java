package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A loopback peer that answers one native connection with bytes written in advance (a ServerHello,
 * then whatever packets a test needs) and records everything the client sends until the client
 * closes. For protocol revisions and server versions the 18.16 test server cannot produce; the
 * bytes are the test's own, so what the client must read is pinned byte for byte.
 */
final class ScriptedServer implements AutoCloseable {
    private final ServerSocket listener;
    private final CompletableFuture<byte[]> received = new CompletableFuture<>();

    /** Serves {@code script} to the first connection. */
    ScriptedServer(byte[] script) throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread t =
                new Thread(
                        () -> {
                            try (Socket s = listener.accept()) {
                                s.getOutputStream().write(script);
                                s.getOutputStream().flush();
                                ByteArrayOutputStream all = new ByteArrayOutputStream();
                                InputStream in = s.getInputStream();
                                byte[] buf = new byte[8192];
                                int n;
                                while ((n = in.read(buf)) >= 0) {
                                    all.write(buf, 0, n);
                                }
                                received.complete(all.toByteArray());
                            } catch (IOException e) {
                                received.completeExceptionally(e);
                            }
                        },
                        "scripted-clickhouse");
        t.setDaemon(true);
        t.start();
    }

    /** A URL for the client. */
    ConnectionConfig config(String parameters) {
        return ConnectionConfig.parse(
                "clickhouse://default@127.0.0.1:"
                        + listener.getLocalPort()
                        + "/default?"
                        + parameters);
    }

    /**
     * Everything the client sent, once it closed its end (fails when it did not close within {@code
     * seconds}: a socket left open).
     */
    byte[] receivedUntilClosed(int seconds) throws Exception {
        return received.get(seconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    /** ServerHello of a server with the given version at {@code revision}. */
    static void hello(WireOutput out, int major, int minor, int revision) {
        out.writeVarUInt(0); // Hello
        out.writeString("ClickHouse");
        out.writeVarUInt(major);
        out.writeVarUInt(minor);
        out.writeVarUInt(revision);
        out.writeString("UTC"); // >= 54058
        out.writeString("scripted"); // >= 54372
        out.writeVarUInt(1); // >= 54401: patch
    }
}
