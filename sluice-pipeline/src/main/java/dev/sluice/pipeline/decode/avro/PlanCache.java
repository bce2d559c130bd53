package dev.sluice.pipeline.decode.avro;

import java.util.Arrays;

/**
 * Plans by schema id, looked up per record without boxing the id: the last id answers at once,
 * others by open addressing.
 */
final class PlanCache {
    private int[] ids = new int[16];
    private Plan[] plans = new Plan[16];
    private int size;
    private int lastId;
    private Plan last;

    Plan get(int id) {
        if (last != null && id == lastId) {
            return last;
        }
        int mask = ids.length - 1;
        for (int i = mix(id) & mask; plans[i] != null; i = (i + 1) & mask) {
            if (ids[i] == id) {
                lastId = id;
                last = plans[i];
                return last;
            }
        }
        return null;
    }

    void put(int id, Plan plan) {
        if ((size + 1) * 2 > ids.length) {
            int[] oldIds = ids;
            Plan[] oldPlans = plans;
            ids = new int[oldIds.length * 2];
            plans = new Plan[oldIds.length * 2];
            size = 0;
            for (int i = 0; i < oldIds.length; i++) {
                if (oldPlans[i] != null) {
                    insert(oldIds[i], oldPlans[i]);
                }
            }
        }
        insert(id, plan);
        lastId = id;
        last = plan;
    }

    private void insert(int id, Plan plan) {
        int mask = ids.length - 1;
        int i = mix(id) & mask;
        while (plans[i] != null && ids[i] != id) {
            i = (i + 1) & mask;
        }
        if (plans[i] == null) {
            size++;
        }
        ids[i] = id;
        plans[i] = plan;
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(plans, null);
        size = 0;
        last = null;
    }

    private static int mix(int id) {
        int h = id * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
