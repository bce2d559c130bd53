package dev.sluice.clickhouse.http;

import dev.sluice.clickhouse.net.GuardedSocket;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Keep-alive sockets of one {@link HttpConnection} between requests, most recently used first. A
 * socket is reused only well within the server's keep-alive timeout and after a check that the
 * server has not closed it, because a streamed INSERT body cannot be sent again.
 */
final class IdleSockets {
    private static final int MAX_IDLE = 16;

    private record Idle(GuardedSocket socket, long expiresAtNanos) {}

    private final Deque<Idle> idle = new ArrayDeque<>();
    private boolean closed;

    /** A live idle socket, or null. */
    GuardedSocket take() {
        while (true) {
            Idle candidate;
            synchronized (this) {
                candidate = idle.pollFirst();
            }
            if (candidate == null) {
                return null;
            }
            if (System.nanoTime() - candidate.expiresAtNanos < 0
                    && candidate.socket.stillOpenWhileIdle()) {
                return candidate.socket;
            }
            candidate.socket.close();
        }
    }

    /** Keeps {@code socket} for up to {@code keepAliveMillis}, or closes it. */
    void give(GuardedSocket socket, long keepAliveMillis) {
        if (keepAliveMillis <= 0) {
            socket.close();
            return;
        }
        Idle evicted = null;
        synchronized (this) {
            if (!closed) {
                idle.addFirst(new Idle(socket, System.nanoTime() + keepAliveMillis * 1_000_000L));
                socket = null;
                if (idle.size() > MAX_IDLE) {
                    evicted = idle.pollLast();
                }
            }
        }
        if (socket != null) {
            socket.close();
        }
        if (evicted != null) {
            evicted.socket.close();
        }
    }

    void closeAll() {
        Deque<Idle> all;
        synchronized (this) {
            closed = true;
            all = new ArrayDeque<>(idle);
            idle.clear();
        }
        for (Idle i : all) {
            i.socket.close();
        }
    }
}
