package dev.sluice.cli;

import dev.sluice.clickhouse.compress.CityHash64;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

/**
 * The "json700" events of the load benchmark's NDJSON arm, as Kafka messages: web events of about
 * 720 bytes, several objects deep, whose top-level {@code ts}, {@code tenant}, {@code kind} and
 * {@code id} the tables take as columns (and the whole message as {@code raw}). Event {@code i} is
 * a function of {@code (seed, i)} alone, so a check can recompute any of them; its {@code id} is
 * {@code i}.
 */
final class Json700 {
    /** The columns every stream test table has; the tests add their own after them. */
    static final String COLUMNS =
            "ts DateTime, tenant UInt32, kind String, id UInt64, raw String,"
                    + " part UInt16, off UInt64";

    /** How a pipeline fills {@link #COLUMNS}: the message's partition and offset, and itself. */
    static final String DECODE =
            """
            decode:
              json:
                fields: {raw: "$", part: _partition, off: _offset}
                ignore_unknown: true
            """;

    private static final long START_SECONDS = 1_704_067_200L; // 2024-01-01T00:00:00Z
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final String[] KINDS = {
        "page_view", "click", "search", "add_to_cart", "remove_from_cart",
        "checkout_start", "checkout_complete", "purchase", "refund", "login",
        "logout", "signup", "share", "comment", "like",
        "follow", "video_play", "video_pause", "error", "session_heartbeat"
    };
    private static final String[] COUNTRIES = {"DE", "FR", "US", "BR", "IN", "JP", "GB", "SE"};
    private static final String[] CITIES = {
        "Berlin", "Paris", "New York", "São Paulo", "Mumbai", "Tokyo", "London", "Malmö"
    };
    private static final String[] BROWSERS = {"Firefox", "Chrome", "Safari", "Edge"};
    private static final String[] SYSTEMS = {"Linux", "Windows", "macOS", "Android", "iOS"};
    private static final String[] PLANS = {"free", "pro", "team", "enterprise"};
    private static final String[] WORDS = {
        "amber", "basil", "cedar", "dune", "ember", "fjord", "glade", "heron", "iris", "juniper",
        "kelp", "lotus", "maple", "nectar", "orchid", "pebble", "quartz", "reed"
    };

    private final long seed;

    Json700(long seed) {
        this.seed = seed;
    }

    /** The event's time in epoch seconds (about 250 events a second, nearly in order). */
    long ts(long i) {
        return START_SECONDS + i / 250 + random(i).nextInt(3);
    }

    /** Event {@code i} as UTF-8 JSON. */
    byte[] record(long i) {
        SplittableRandom rnd = random(i);
        long ts = START_SECONDS + i / 250 + rnd.nextInt(3);
        double u = rnd.nextDouble();
        int tenant = 1 + (int) (u * u * u * 1000); // a few tenants dominate
        double v = rnd.nextDouble();
        String kind = KINDS[(int) (v * v * KINDS.length)];
        int user = rnd.nextInt(1_000_000);
        int place = rnd.nextInt(COUNTRIES.length);
        String w1 = word(rnd);
        String w2 = word(rnd);
        String browser = BROWSERS[rnd.nextInt(BROWSERS.length)];
        StringBuilder sb = new StringBuilder(800);
        sb.append("{\"ts\":\"")
                .append(LocalDateTime.ofEpochSecond(ts, 0, ZoneOffset.UTC).format(STAMP))
                .append('"');
        sb.append(",\"tenant\":").append(tenant);
        sb.append(",\"kind\":\"").append(kind).append('"');
        sb.append(",\"id\":").append(i);
        sb.append(",\"user\":{\"id\":").append(user);
        sb.append(",\"handle\":\"user-").append(user).append('"');
        sb.append(",\"plan\":\"").append(PLANS[rnd.nextInt(PLANS.length)]).append('"');
        sb.append(",\"geo\":{\"country\":\"").append(COUNTRIES[place]);
        sb.append("\",\"city\":\"").append(CITIES[place]);
        sb.append("\",\"lat\":").append(rnd.nextInt(-90_000, 90_000) / 1000.0);
        sb.append(",\"lon\":").append(rnd.nextInt(-180_000, 180_000) / 1000.0).append("}}");
        sb.append(",\"device\":{\"type\":\"").append(rnd.nextBoolean() ? "desktop" : "mobile");
        sb.append("\",\"os\":\"").append(SYSTEMS[rnd.nextInt(SYSTEMS.length)]);
        sb.append("\",\"browser\":\"").append(browser);
        sb.append("\",\"version\":\"").append(100 + rnd.nextInt(30)).append(".0\"");
        sb.append(",\"ua\":\"Mozilla/5.0 (X11; Linux x86_64) ").append(browser).append("/128.0\"}");
        sb.append(",\"page\":{\"url\":\"https://shop.example.com/")
                .append(w1)
                .append('/')
                .append(w2)
                .append('/')
                .append(rnd.nextInt(10_000))
                .append('"');
        sb.append(",\"referrer\":\"https://search.example.org/?q=")
                .append(w2)
                .append('+')
                .append(w1)
                .append('"');
        sb.append(",\"title\":\"").append(w1).append(' ').append(w2).append(" — Example Shop\"}");
        sb.append(",\"session\":{\"id\":\"")
                .append(Long.toHexString(rnd.nextLong() | 1L << 63))
                .append(Long.toHexString(rnd.nextLong() | 1L << 63))
                .append('"');
        sb.append(",\"seq\":").append(rnd.nextInt(200));
        sb.append(",\"duration_ms\":").append(rnd.nextInt(3_600_000)).append('}');
        sb.append(",\"metrics\":{\"ttfb_ms\":").append(rnd.nextInt(2000));
        sb.append(",\"fcp_ms\":").append(rnd.nextInt(5000));
        sb.append(",\"lcp_ms\":").append(rnd.nextInt(8000));
        sb.append(",\"cls\":").append(rnd.nextInt(1000) / 1000.0).append('}');
        sb.append(",\"tags\":[");
        int tags = 2 + rnd.nextInt(4);
        for (int t = 0; t < tags; t++) {
            sb.append(t == 0 ? "\"" : ",\"").append(word(rnd)).append('"');
        }
        sb.append("],\"experiment\":{\"name\":\"checkout-v")
                .append(1 + rnd.nextInt(3))
                .append("\",\"variant\":\"")
                .append(rnd.nextBoolean() ? 'A' : 'B')
                .append("\"}}");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private SplittableRandom random(long i) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
    }

    private static String word(SplittableRandom rnd) {
        return WORDS[rnd.nextInt(WORDS.length)];
    }

    /**
     * Order-independent sums over events {@code 0..n-1} that the server recomputes over a table's
     * distinct rows ({@link #SQL}): count, ids, tenants, times, raw bytes and the CityHash64 of
     * each raw message — value by value, in aggregate.
     */
    record Sums(long count, long ids, long tenants, long ts, long rawBytes, long rawHashes) {
        /**
         * The sums over the table {@code t}'s distinct messages (one row per partition and offset).
         */
        static String sql(String table) {
            return "SELECT count(), sum(i), sum(te), sum(t), sum(b), sum(h) FROM (SELECT part, off,"
                    + " any(id) AS i, any(tenant) AS te, any(toUInt32(ts)) AS t,"
                    + " any(length(raw)) AS b, any(cityHash64(raw)) AS h FROM "
                    + table
                    + " GROUP BY part, off)";
        }

        Sums plus(long id, long tenant, long ts, byte[] raw) {
            return new Sums(
                    count + 1,
                    ids + id,
                    tenants + tenant,
                    this.ts + ts,
                    rawBytes + raw.length,
                    rawHashes + CityHash64.hash(raw, 0, raw.length));
        }
    }

    /** The sums of events {@code 0..n-1}. */
    Sums sums(long n) {
        Sums s = new Sums(0, 0, 0, 0, 0, 0);
        for (long i = 0; i < n; i++) {
            byte[] raw = record(i);
            s = s.plus(i, tenant(i), ts(i), raw);
        }
        return s;
    }

    long tenant(long i) {
        SplittableRandom rnd = random(i);
        rnd.nextInt(3);
        double u = rnd.nextDouble();
        return 1 + (int) (u * u * u * 1000);
    }
}
