package dev.sluice.rigs;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** The calling thread's CPU time: what an insert done on this thread costs the client. */
public final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadCpu() {}

    public static long nanos() {
        return THREADS.getCurrentThreadCpuTime();
    }
}
