package dev.sluice.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@link DecodeBench}'s arms timed by the thread's CPU clock instead of the wall clock: on a shared
 * machine whose cores are busy with other work, wall time per record counts the time the thread
 * waited for a core, CPU time (mostly) does not. Prints per arm the minimum and the median CPU ns
 * per record over 40 rounds of 50 passes over the 4,096 events, after 20 warm-up rounds.
 *
 * <pre>java -cp sluice-bench/target/sluice-bench.jar dev.sluice.bench.DecodeCpuBench [arm,...]
 * </pre>
 */
public final class DecodeCpuBench {
    private static final int WARMUP = 20;
    private static final int ROUNDS = 40;
    private static final int PASSES = 50;

    private DecodeCpuBench() {}

    public static void main(String[] args) throws Exception {
        String arms =
                args.length > 0
                        ? args[0]
                        : "ndjson-raw,ndjson-raw-jackson,ndjson-fields,ndjson-fields-jackson,tsv";
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (String arm : arms.split(",")) {
            DecodeBench b = new DecodeBench();
            b.input = arm;
            b.setUp();
            double[] perRecord = new double[ROUNDS];
            for (int round = -WARMUP; round < ROUNDS; round++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int k = 0; k < PASSES; k++) {
                    b.decode();
                }
                long t1 = mx.getCurrentThreadCpuTime();
                if (round >= 0) {
                    perRecord[round] = (t1 - t0) / ((double) PASSES * DecodeBench.RECORDS);
                }
            }
            Arrays.sort(perRecord);
            System.out.printf(
                    "%-22s CPU ns/record: min %5.0f  median %5.0f%n",
                    arm, perRecord[0], perRecord[ROUNDS / 2]);
        }
    }
}
