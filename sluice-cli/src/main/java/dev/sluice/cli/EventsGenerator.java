package dev.sluice.cli;

import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.column.Column;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Synthetic events, the shape Sluice's benchmarks use: {@code ts DateTime, tenant UInt32, kind
 * String (20 distinct), id UInt64, payload String} with payloads drawn from an arena of distinct
 * ~200-byte strings. Seeded, so every run produces the same rows. Appends go straight into the
 * insert's columns; nothing is allocated per row.
 */
final class EventsGenerator {
    static final String TABLE_COLUMNS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";

    private static final String[] KIND_NAMES = {
        "page_view",
        "click",
        "signup",
        "login",
        "logout",
        "purchase",
        "refund",
        "search",
        "add_to_cart",
        "remove_from_cart",
        "checkout",
        "error",
        "api_call",
        "upload",
        "download",
        "share",
        "comment",
        "like",
        "subscribe",
        "unsubscribe"
    };

    private final SplittableRandom random;
    private final byte[][] kinds = new byte[KIND_NAMES.length][];
    private final byte[][] payloads;
    private final long startSeconds;
    private long next;

    EventsGenerator(long seed, int payloadArena, long startSeconds) {
        this.random = new SplittableRandom(seed);
        for (int i = 0; i < KIND_NAMES.length; i++) {
            kinds[i] = KIND_NAMES[i].getBytes(StandardCharsets.US_ASCII);
        }
        this.payloads = new byte[payloadArena][];
        SplittableRandom arena = new SplittableRandom(seed ^ 0x5EED);
        for (int i = 0; i < payloadArena; i++) {
            payloads[i] = payload(arena, i);
        }
        this.startSeconds = startSeconds;
    }

    private static byte[] payload(SplittableRandom r, int index) {
        StringBuilder sb = new StringBuilder(220);
        sb.append("{\"session\":\"")
                .append(Long.toHexString(r.nextLong()))
                .append("\",\"path\":\"/");
        int segments = 2 + r.nextInt(4);
        for (int s = 0; s < segments; s++) {
            sb.append(Long.toString(r.nextLong() >>> 20, 36)).append('/');
        }
        sb.append("\",\"agent\":\"sluice-demo/").append(index % 17).append("\",\"v\":");
        while (sb.length() < 190 + r.nextInt(20)) {
            sb.append(r.nextInt(10));
        }
        return sb.append('}').toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Appends {@code rows} events to the insert (which sends blocks as they fill). */
    void appendTo(Insert insert, long rows) {
        Column ts = insert.column("ts");
        Column tenant = insert.column("tenant");
        Column kind = insert.column("kind");
        Column id = insert.column("id");
        Column payload = insert.column("payload");
        for (long i = 0; i < rows; i++) {
            long n = next++;
            ts.appendLong(startSeconds + n / 1000);
            tenant.appendLong(random.nextInt(1000));
            byte[] k = kinds[random.nextInt(kinds.length)];
            kind.appendBytes(k, 0, k.length);
            id.appendLong(n);
            byte[] p = payloads[random.nextInt(payloads.length)];
            payload.appendBytes(p, 0, p.length);
            insert.endRow();
        }
    }
}
