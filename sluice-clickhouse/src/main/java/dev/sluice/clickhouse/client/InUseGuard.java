package dev.sluice.clickhouse.client;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets one thread at a time into a connection's wire calls: a second thread fails fast with an
 * {@link IllegalStateException} naming what the first is doing and the first thread, instead of
 * interleaving its bytes with the first one's on the socket (which the server would take for a
 * corrupt stream, or worse, for different data). The thread inside may enter again (an insert of a
 * whole block runs the streaming insert inside it).
 *
 * <p>Costs one compare-and-set per call; calls are per block or per query, never per row.
 */
final class InUseGuard {
    private final String owner;
    private final AtomicReference<Thread> inside = new AtomicReference<>();
    private volatile String activity;
    private int depth; // touched only by the thread inside

    /**
     * @param owner the connection, for messages (e.g. {@code NativeConnection to host:port})
     */
    InUseGuard(String owner) {
        this.owner = owner;
    }

    /**
     * Enters for {@code what}; fails when another thread is inside.
     *
     * @return true for the outermost entry of this thread
     * @throws IllegalStateException naming both operations and the thread inside
     */
    boolean enter(String what) {
        Thread me = Thread.currentThread();
        while (true) {
            Thread current = inside.get();
            if (current == me) {
                depth++;
                return false;
            }
            if (current == null) {
                if (inside.compareAndSet(null, me)) {
                    depth = 1;
                    activity = what;
                    return true;
                }
                continue; // it left and another came in between: look again
            }
            String doing = activity;
            throw new IllegalStateException(
                    owner
                            + ": cannot run "
                            + what
                            + " on thread '"
                            + me.getName()
                            + "': "
                            + (doing == null ? "another operation" : doing)
                            + " is running on thread '"
                            + current.getName()
                            + "'. A connection runs one operation at a time; give each thread its"
                            + " own connection (a ConnectionPool shares them)");
        }
    }

    /**
     * Leaves; the last exit lets other threads in.
     *
     * @return true when this was the outermost entry
     */
    boolean exit() {
        if (--depth == 0) {
            activity = null;
            inside.set(null);
            return true;
        }
        return false;
    }

    /** Whether the calling thread is inside. */
    boolean isHeldByCurrentThread() {
        return inside.get() == Thread.currentThread();
    }

    /** The thread inside, or null. */
    Thread holder() {
        return inside.get();
    }
}
