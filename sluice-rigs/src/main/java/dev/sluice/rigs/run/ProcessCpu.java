package dev.sluice.rigs.run;

import dev.sluice.rigs.ProcStat;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * This JVM's CPU time, whole and by thread group: the pipeline threads (source, decode, batching)
 * and the shard writers (encode, compress, send), told apart by the runtime's thread names.
 */
public final class ProcessCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ProcessCpu() {}

    /** A mark: process ticks and each thread's CPU nanoseconds. */
    public record Mark(long processTicks, Map<Long, Long> threadNanos, Map<Long, String> names) {}

    public static Mark mark() {
        Map<Long, Long> nanos = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t == null) {
                continue;
            }
            long n = THREADS.getThreadCpuTime(t.getThreadId());
            if (n >= 0) {
                nanos.put(t.getThreadId(), n);
                names.put(t.getThreadId(), t.getThreadName());
            }
        }
        return new Mark(ProcStat.cpuTicks("self"), nanos, names);
    }

    /** Whole-process CPU seconds between two marks. */
    public static double processSeconds(Mark from, Mark to) {
        return ProcStat.seconds(to.processTicks() - from.processTicks());
    }

    /**
     * CPU seconds between two marks of the threads whose name contains {@code part} (threads born
     * in between count from 0).
     */
    public static double threadSeconds(Mark from, Mark to, String part) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : to.threadNanos().entrySet()) {
            String name = to.names().get(e.getKey());
            if (name != null && name.contains(part)) {
                sum += e.getValue() - from.threadNanos().getOrDefault(e.getKey(), 0L);
            }
        }
        return sum / 1e9;
    }
}
