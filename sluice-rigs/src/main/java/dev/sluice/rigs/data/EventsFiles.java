package dev.sluice.rigs.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

/**
 * The input files of the load benchmark, written from a fixed seed so every run and every arm reads
 * the same bytes, with the checksums the loaded table must then show.
 *
 * <ul>
 *   <li>{@link #writeTsv}: the events rows of {@link EventsData} as headerless TabSeparated, {@code
 *       ts} as {@code YYYY-MM-DD hh:mm:ss} (UTC).
 *   <li>{@link #writeNdjson}: web events of about 700 bytes, several nested objects deep; the table
 *       takes {@code ts, tenant, kind, id} from top-level keys and the whole line into {@code raw}.
 *       With it, the same rows pre-extracted for {@code clickhouse-client ... FORMAT JSONEachRow}:
 *       the four fields and the original line as a JSON string.
 * </ul>
 */
public final class EventsFiles {
    /** The NDJSON arms' table. */
    public static final String JSON_COLUMNS_DDL =
            "ts DateTime, tenant UInt32, kind String, id UInt64, raw String";

    /** Recomputed by the server over the loaded table: {@link Sums#render()}. */
    public static final String JSON_SUMS_SQL =
            "SELECT count(), sum(toUInt32(ts)), sum(tenant), sum(id), sum(length(kind)),"
                    + " sum(length(raw)) FROM ";

    private static final String[] COUNTRIES = {
        "DE", "FR", "US", "BR", "IN", "JP", "GB", "NL", "SE", "ES", "IT", "PL", "CA", "AU"
    };
    private static final String[] CITIES = {
        "Berlin",
        "Paris",
        "New York",
        "São Paulo",
        "Mumbai",
        "Tokyo",
        "London",
        "Amsterdam",
        "Stockholm",
        "Madrid",
        "Milano",
        "Kraków",
        "Toronto",
        "Sydney"
    };
    private static final String[] BROWSERS = {"Firefox", "Chrome", "Safari", "Edge"};
    private static final String[] OSES = {"Linux", "Windows", "macOS", "Android", "iOS"};
    private static final String[] PLANS = {"free", "pro", "team", "enterprise"};
    private static final String[] KINDS = {
        "page_view", "click", "search", "add_to_cart", "remove_from_cart",
        "checkout_start", "checkout_complete", "purchase", "refund", "login",
        "logout", "signup", "share", "comment", "like",
        "follow", "video_play", "video_pause", "error", "session_heartbeat"
    };
    private static final String[] WORDS = {
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"
    };

    private EventsFiles() {}

    /** Order-independent sums of a loaded table, as {@code count, ts, tenant, id, kind, raw}. */
    public record Sums(long rows, long ts, long tenant, long id, long kindBytes, long rawBytes) {
        public String render() {
            return rows
                    + "\t"
                    + ts
                    + "\t"
                    + tenant
                    + "\t"
                    + Long.toUnsignedString(id)
                    + "\t"
                    + kindBytes
                    + "\t"
                    + rawBytes;
        }
    }

    /**
     * Writes {@code data} as a Native stream (revision 0, no BlockInfo: what {@code
     * clickhouse-client ... FORMAT Native} reads) in blocks of {@code blockRows}.
     */
    public static void writeNative(EventsData data, int blockRows, Path file) throws IOException {
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            dev.sluice.clickhouse.io.WireOutput out =
                    new dev.sluice.clickhouse.io.WireOutput(
                            1 << 20,
                            (buf, off, len) -> {
                                try {
                                    os.write(buf, off, len);
                                } catch (IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            });
            dev.sluice.clickhouse.block.Block block = EventsData.newBlock();
            for (int from = 0; from < data.rows; from += blockRows) {
                block.reset();
                data.appendTo(block, from, Math.min(data.rows, from + blockRows));
                dev.sluice.clickhouse.block.NativeBlockCodec.write(block, out, 0);
            }
            out.flush();
        }
    }

    /** Writes {@code data} as TabSeparated. */
    public static void writeTsv(EventsData data, Path file) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            long second = Long.MIN_VALUE;
            byte[] stamp = null;
            for (int r = 0; r < data.rows; r++) {
                if (data.ts[r] != second) { // ts changes about every thousand rows
                    second = data.ts[r];
                    stamp = dateTime(second).getBytes(StandardCharsets.US_ASCII);
                }
                out.write(stamp);
                out.write('\t');
                ascii(out, Integer.toString(data.tenant[r]));
                out.write('\t');
                out.write(data.kinds[data.kindIndex[r]]);
                out.write('\t');
                ascii(out, Long.toUnsignedString(data.id[r]));
                out.write('\t');
                tsvEscaped(out, data.payloads[data.payloadIndex[r]]);
                out.write('\n');
            }
        }
    }

    /**
     * Writes {@code data} as NDJSON, one object per row with the table's five columns by name
     * ({@code ts} as {@code YYYY-MM-DD hh:mm:ss}, UTC): the rows {@link #writeTsv} writes, for
     * loaders that take JSON.
     */
    public static void writeRowsNdjson(EventsData data, Path file) throws IOException {
        StringBuilder sb = new StringBuilder(512);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (int r = 0; r < data.rows; r++) {
                sb.setLength(0);
                sb.append("{\"ts\":\"").append(dateTime(data.ts[r])).append("\",\"tenant\":");
                sb.append(data.tenant[r]).append(",\"kind\":");
                jsonString(sb, new String(data.kinds[data.kindIndex[r]], StandardCharsets.UTF_8));
                sb.append(",\"id\":").append(Long.toUnsignedString(data.id[r]));
                sb.append(",\"payload\":");
                jsonString(
                        sb,
                        new String(data.payloads[data.payloadIndex[r]], StandardCharsets.UTF_8));
                sb.append("}\n");
                out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Writes {@code rows} NDJSON events to {@code file} and the same rows pre-extracted to {@code
     * extracted}; returns the sums both loaded tables must show.
     */
    public static Sums writeNdjson(int rows, long seed, Path file, Path extracted)
            throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        long sumTs = 0;
        long sumTenant = 0;
        long sumId = 0;
        long kindBytes = 0;
        long rawBytes = 0;
        StringBuilder line = new StringBuilder(1024);
        StringBuilder ext = new StringBuilder(1536);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
                OutputStream outExt =
                        new BufferedOutputStream(Files.newOutputStream(extracted), 1 << 20)) {
            for (int r = 0; r < rows; r++) {
                long ts = EventsData.START_SECONDS + r / 250 + rnd.nextInt(3);
                double u = rnd.nextDouble();
                int tenant = 1 + (int) (u * u * u * 1000);
                double v = rnd.nextDouble();
                String kind = KINDS[(int) (v * v * KINDS.length)];
                long id =
                        ((ts - EventsData.START_SECONDS) * 1000 + rnd.nextInt(1000)) << 22
                                | rnd.nextInt(1 << 22);
                String stamp = dateTime(ts);
                line.setLength(0);
                event(line, rnd, stamp, tenant, kind, id);
                byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
                out.write(bytes);
                out.write('\n');

                ext.setLength(0);
                ext.append("{\"ts\":\"").append(stamp).append("\",\"tenant\":").append(tenant);
                ext.append(",\"kind\":\"").append(kind).append("\",\"id\":").append(id);
                ext.append(",\"raw\":");
                jsonString(ext, line);
                ext.append("}\n");
                outExt.write(ext.toString().getBytes(StandardCharsets.UTF_8));

                sumTs += ts;
                sumTenant += tenant;
                sumId += id;
                kindBytes += kind.length();
                rawBytes += bytes.length;
            }
        }
        return new Sums(rows, sumTs, sumTenant, sumId, kindBytes, rawBytes);
    }

    /**
     * The NDJSON events of {@link #writeNdjson} in memory: the four extracted values and the whole
     * line (its UTF-8 bytes) per row — the ~700-byte shape of the seed LZ4 benchmark.
     */
    public record JsonRows(long[] ts, int[] tenant, String[] kind, long[] id, byte[][] raw) {
        public int rows() {
            return ts.length;
        }
    }

    /** {@code rows} events from {@code seed}, the same as {@link #writeNdjson} writes. */
    public static JsonRows jsonRows(int rows, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        JsonRows out =
                new JsonRows(
                        new long[rows],
                        new int[rows],
                        new String[rows],
                        new long[rows],
                        new byte[rows][]);
        StringBuilder line = new StringBuilder(1024);
        for (int r = 0; r < rows; r++) {
            long ts = EventsData.START_SECONDS + r / 250 + rnd.nextInt(3);
            double u = rnd.nextDouble();
            int tenant = 1 + (int) (u * u * u * 1000);
            double v = rnd.nextDouble();
            String kind = KINDS[(int) (v * v * KINDS.length)];
            long id =
                    ((ts - EventsData.START_SECONDS) * 1000 + rnd.nextInt(1000)) << 22
                            | rnd.nextInt(1 << 22);
            line.setLength(0);
            event(line, rnd, dateTime(ts), tenant, kind, id);
            out.ts[r] = ts;
            out.tenant[r] = tenant;
            out.kind[r] = kind;
            out.id[r] = id;
            out.raw[r] = line.toString().getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    /** One event: the four extracted keys first, then nested objects a real tracker would send. */
    private static void event(
            StringBuilder sb, SplittableRandom rnd, String ts, int tenant, String kind, long id) {
        int user = rnd.nextInt(1_000_000);
        int place = rnd.nextInt(COUNTRIES.length);
        String w1 = WORDS[rnd.nextInt(WORDS.length)];
        String w2 = WORDS[rnd.nextInt(WORDS.length)];
        String browser = BROWSERS[rnd.nextInt(BROWSERS.length)];
        sb.append("{\"ts\":\"").append(ts).append('"');
        sb.append(",\"tenant\":").append(tenant);
        sb.append(",\"kind\":\"").append(kind).append('"');
        sb.append(",\"id\":").append(id);
        sb.append(",\"user\":{\"id\":").append(user);
        sb.append(",\"name\":\"user-").append(user).append('"');
        sb.append(",\"plan\":\"").append(PLANS[rnd.nextInt(PLANS.length)]).append('"');
        sb.append(",\"geo\":{\"country\":\"").append(COUNTRIES[place]).append('"');
        sb.append(",\"city\":\"").append(CITIES[place]).append('"');
        sb.append(",\"lat\":").append(rnd.nextInt(-90_000, 90_000) / 1000.0);
        sb.append(",\"lon\":").append(rnd.nextInt(-180_000, 180_000) / 1000.0).append("}}");
        sb.append(",\"device\":{\"type\":\"").append(rnd.nextBoolean() ? "desktop" : "mobile");
        sb.append("\",\"os\":\"").append(OSES[rnd.nextInt(OSES.length)]);
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
        sb.append(",\"referrer\":\"https://www.search.example/?q=")
                .append(w2)
                .append('+')
                .append(w1)
                .append('"');
        sb.append(",\"title\":\"").append(w1).append(" ").append(w2).append(" — Example Shop\"}");
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
            sb.append(t == 0 ? "\"" : ",\"").append(WORDS[rnd.nextInt(WORDS.length)]).append('"');
        }
        sb.append("],\"experiment\":{\"name\":\"checkout-v")
                .append(1 + rnd.nextInt(3))
                .append("\",\"variant\":\"")
                .append(rnd.nextBoolean() ? 'A' : 'B')
                .append("\"}}");
    }

    public static String dateTime(long epochSecond) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
        return String.format(
                "%04d-%02d-%02d %02d:%02d:%02d",
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond());
    }

    private static void ascii(OutputStream out, String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            out.write(s.charAt(i));
        }
    }

    /** TabSeparated escaping; the payloads need none today, but the file must stay valid. */
    private static void tsvEscaped(OutputStream out, byte[] b) throws IOException {
        for (byte c : b) {
            switch (c) {
                case '\t' -> out.write(new byte[] {'\\', 't'});
                case '\n' -> out.write(new byte[] {'\\', 'n'});
                case '\\' -> out.write(new byte[] {'\\', '\\'});
                default -> out.write(c);
            }
        }
    }

    private static void jsonString(StringBuilder sb, CharSequence s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> sb.append(c); // the events hold no control characters
            }
        }
        sb.append('"');
    }
}
