package dev.sluice.rigs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU times from {@code /proc/<pid>/stat}, in clock ticks ({@code getconf CLK_TCK}, 100 on Linux
 * x86): utime + stime of the process, and cutime + cstime of the children it has waited for.
 */
public final class ProcStat {
    /** USER_HZ: fixed at 100 by the Linux ABI on x86, whatever the kernel's HZ. */
    public static final int TICKS_PER_SECOND = ticksPerSecond();

    private ProcStat() {}

    /** utime + stime of {@code pid} ("self" for this JVM). */
    public static long cpuTicks(String pid) {
        String[] f = fields(pid);
        return Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** cutime + cstime: CPU of the children this process has reaped. */
    public static long childCpuTicks(String pid) {
        String[] f = fields(pid);
        return Long.parseLong(f[15]) + Long.parseLong(f[16]);
    }

    public static double seconds(long ticks) {
        return (double) ticks / TICKS_PER_SECOND;
    }

    private static String[] fields(String pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", pid, "stat"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/" + pid + "/stat: " + e, e);
        }
        // The command name (field 2) is in parentheses and may contain spaces: split after it.
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).trim().split("\\s+");
        String[] all = new String[rest.length + 2];
        all[0] = stat.substring(0, stat.indexOf(' '));
        all[1] = stat.substring(stat.indexOf('('), close + 1);
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }

    private static int ticksPerSecond() {
        String env = System.getenv("CLK_TCK");
        if (env != null && !env.isBlank()) {
            return Integer.parseInt(env.trim());
        }
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Integer.parseInt(out);
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
