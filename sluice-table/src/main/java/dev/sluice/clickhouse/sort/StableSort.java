package dev.sluice.clickhouse.sort;

import java.util.Arrays;

/** Stable sorts of row numbers: a merge sort by a comparator and a radix sort by packed keys. */
final class StableSort {
    private static final int INSERTION_MAX = 24;

    /** The order of two rows: negative, zero or positive. */
    interface RowOrder {
        int compare(int a, int b);
    }

    private StableSort() {}

    /**
     * Sorts {@code rows[0 .. n)} by {@code order}, keeping equal rows in their order. Merges are
     * skipped where two halves are already in order, so sorted input costs n comparisons and nearly
     * sorted input little more.
     */
    static void mergeSort(int[] rows, int[] scratch, int n, RowOrder order) {
        sort(rows, scratch, 0, n, order);
    }

    private static void sort(int[] a, int[] tmp, int lo, int hi, RowOrder o) {
        if (hi - lo <= INSERTION_MAX) {
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= lo && o.compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        sort(a, tmp, lo, mid, o);
        sort(a, tmp, mid, hi, o);
        if (o.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, lo, tmp, lo, mid - lo);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            // Take from the right only when strictly smaller: equal rows keep their order.
            a[k++] = o.compare(a[j], tmp[i]) < 0 ? a[j++] : tmp[i++];
        }
        while (i < mid) {
            a[k++] = tmp[i++];
        }
    }

    /**
     * Fills {@code rows[0 .. n)} with the row numbers ordered by the unsigned {@code keys} (whose
     * values use the low {@code bits} bits), stably: least significant byte first, one counting
     * pass per byte, skipping bytes that are the same in every key. Overwrites {@code keys}.
     */
    static void radixSort(
            long[] keys, int n, int bits, int[] rows, int[] rowScratch, long[] keyScratch) {
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        long[] k = keys;
        long[] kt = keyScratch;
        int[] r = rows;
        int[] rt = rowScratch;
        int[] count = new int[257];
        for (int shift = 0; shift < bits; shift += 8) {
            Arrays.fill(count, 0);
            for (int i = 0; i < n; i++) {
                count[(int) (k[i] >>> shift) & 0xFF]++;
            }
            if (count[(int) (k[0] >>> shift) & 0xFF] == n) {
                continue; // every key has this byte: the pass would change nothing
            }
            int sum = 0;
            for (int d = 0; d < 256; d++) {
                int c = count[d];
                count[d] = sum;
                sum += c;
            }
            for (int i = 0; i < n; i++) {
                int pos = count[(int) (k[i] >>> shift) & 0xFF]++;
                kt[pos] = k[i];
                rt[pos] = r[i];
            }
            long[] ks = k;
            k = kt;
            kt = ks;
            int[] rs = r;
            r = rt;
            rt = rs;
        }
        if (r != rows) {
            System.arraycopy(r, 0, rows, 0, n);
        }
    }
}
