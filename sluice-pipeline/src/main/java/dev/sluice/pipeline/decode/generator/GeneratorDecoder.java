package dev.sluice.pipeline.decode.generator;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.pipeline.decode.BlockColumns;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.Decoder;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The benchmark events, computed from the record's position (its row number) and the seed alone, so
 * a replay after a crash produces the same rows: {@code ts DateTime} (one second per 1000 rows from
 * 2023-11-14 22:13:20 UTC), {@code tenant UInt32} (0..999), {@code kind String} (20 names), {@code
 * id UInt64} (the row number) and {@code payload String} (one of {@code payloadArena} distinct
 * ~200-byte JSON texts). The generator source emits empty records; nothing is parsed and nothing is
 * allocated per row.
 */
public final class GeneratorDecoder implements Decoder {
    /** The columns of the events shape; the table may lack some (they are not fed). */
    public static final List<String> COLUMNS = List.of("ts", "tenant", "kind", "id", "payload");

    static final long START_SECONDS = 1_700_000_000L;

    private static final String[] KINDS = {
        "view",
        "click",
        "signup",
        "login",
        "logout",
        "purchase",
        "refund",
        "search",
        "cart_add",
        "cart_remove",
        "checkout",
        "error",
        "api_call",
        "upload",
        "download",
        "share",
        "comment",
        "like",
        "follow",
        "unfollow"
    };

    private final long seed;
    private final byte[][] kinds = new byte[KINDS.length][];
    private final byte[][] payloads;
    private final ColumnSlot ts;
    private final ColumnSlot tenant;
    private final ColumnSlot kind;
    private final ColumnSlot id;
    private final ColumnSlot payload;
    private final int[] fed;
    private final BlockColumns blockColumns = new BlockColumns();

    /**
     * @param slots the fed columns, by name among {@link #COLUMNS} (null when absent)
     */
    public GeneratorDecoder(GeneratorSource spec, List<ColumnSlot> slots) {
        if (spec.payloadArena() < 1) {
            throw new IllegalArgumentException("the generator's payload arena must hold ≥ 1 text");
        }
        this.seed = spec.seed();
        for (int i = 0; i < KINDS.length; i++) {
            kinds[i] = KINDS[i].getBytes(StandardCharsets.US_ASCII);
        }
        payloads = new byte[spec.payloadArena()][];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = payload(r, i);
        }
        ts = slot(slots, "ts");
        tenant = slot(slots, "tenant");
        kind = slot(slots, "kind");
        id = slot(slots, "id");
        payload = slot(slots, "payload");
        fed = slots.stream().mapToInt(s -> s.index).toArray();
    }

    private static ColumnSlot slot(List<ColumnSlot> slots, String name) {
        for (ColumnSlot s : slots) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** A distinct JSON text of 190..230 bytes. */
    private static byte[] payload(SplittableRandom r, int index) {
        StringBuilder sb = new StringBuilder(240);
        sb.append("{\"n\":").append(index).append(",\"session\":\"");
        sb.append(Long.toHexString(r.nextLong())).append("\",\"path\":\"");
        for (int s = 1 + r.nextInt(4); s > 0; s--) {
            sb.append('/').append(Long.toString(r.nextLong() >>> 24, 36));
        }
        sb.append("\",\"ua\":\"gen/").append(r.nextInt(50)).append("\",\"pad\":\"");
        int target = 190 + r.nextInt(40);
        while (sb.length() < target - 2) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.append("\"}").toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public int[] fedColumns() {
        return fed.clone();
    }

    @Override
    public void decode(PolledRecords batch, int index, RowTarget row) throws RecordException {
        Column[] cols = blockColumns.of(row.block());
        long n = batch.position[index];
        long h = mix(seed ^ mix(n));
        ColumnSlot at = null;
        try {
            if (ts != null) {
                at = ts;
                ts.converter.dateTime(cols[ts.index], START_SECONDS + n / 1000);
            }
            if (tenant != null) {
                at = tenant;
                tenant.converter.integer(cols[tenant.index], Long.remainderUnsigned(h, 1000));
            }
            if (kind != null) {
                at = kind;
                byte[] k = kinds[(int) Long.remainderUnsigned(h >>> 20, kinds.length)];
                kind.converter.text(cols[kind.index], k, 0, k.length);
            }
            if (id != null) {
                at = id;
                id.converter.integer(cols[id.index], n);
            }
            if (payload != null) {
                at = payload;
                byte[] p = payloads[(int) Long.remainderUnsigned(mix(h), payloads.length)];
                payload.converter.text(cols[payload.index], p, 0, p.length);
            }
        } catch (ConversionException | ColumnValueException e) {
            throw at.error(e);
        }
    }

    /** SplitMix64's finalizer: a well-mixed 64-bit hash of {@code z}. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
