package dev.sluice.clickhouse.it;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Signals to server processes by pid: crash (SIGKILL), freeze (SIGSTOP) and thaw (SIGCONT). */
public final class Signals {
    private Signals() {}

    /** SIGKILL, then waits until the process is gone (its pid lingers briefly after the signal). */
    public static void kill9(long pid, String what) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty()) {
            throw new IllegalStateException(what + " (pid " + pid + ") is not running");
        }
        h.get().destroyForcibly();
        awaitGone(pid, Duration.ofSeconds(10), what);
    }

    /** SIGSTOP: the process stays alive but does nothing; its sockets stay open. */
    public static void stop(long pid, String what) {
        send("STOP", pid, what);
    }

    /** SIGCONT after {@link #stop}. */
    public static void cont(long pid, String what) {
        send("CONT", pid, what);
    }

    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    public static void awaitGone(long pid, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (alive(pid)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        what + " (pid " + pid + ") is still alive after " + timeout);
            }
            sleep(50);
        }
    }

    // Java has no API for SIGSTOP/SIGCONT; kill(1) does it.
    private static void send(String signal, long pid, String what) {
        try {
            Process p =
                    new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                            .redirectErrorStream(true)
                            .start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(
                        "kill -" + signal + " " + pid + " (" + what + ") failed: " + out.trim());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
