package dev.sluice.rigs.data;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.io.WireOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The benchmark's events rows, as a decoder would hand them over: primitive arrays plus two arenas
 * of byte strings, generated from a fixed seed so every run and every arm sees the same bytes.
 *
 * <pre>
 * ts       DateTime  seconds from 2024-01-01, ~1000 rows per second, nearly ordered
 * tenant   UInt32    1..1000, skewed (cube of a uniform draw: a few tenants dominate)
 * kind     String    one of 20 event names, skewed
 * id       UInt64    snowflake-like: millisecond timestamp << 22 | 22 random bits
 * payload  String    one of 2048 distinct JSON-like strings of 160..240 bytes, uniform
 * </pre>
 */
public final class EventsData {
    public static final long DEFAULT_SEED = 20240101L;
    public static final int PAYLOADS = 2048;
    public static final long START_SECONDS = 1_704_067_200L; // 2024-01-01T00:00:00Z

    public static final List<String> COLUMN_NAMES =
            List.of("ts", "tenant", "kind", "id", "payload");
    public static final List<String> COLUMN_TYPES =
            List.of("DateTime", "UInt32", "String", "UInt64", "String");
    public static final String COLUMNS_DDL =
            "ts DateTime, tenant UInt32, kind String, id UInt64, payload String";

    private static final String[] KIND_NAMES = {
        "page_view", "click", "search", "add_to_cart", "remove_from_cart",
        "checkout_start", "checkout_complete", "purchase", "refund", "login",
        "logout", "signup", "share", "comment", "like",
        "follow", "video_play", "video_pause", "error", "session_heartbeat"
    };

    private static final String[] WORDS = {
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
        "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"
    };

    public final int rows;
    public final long[] ts;
    public final int[] tenant;
    public final int[] kindIndex;
    public final long[] id;
    public final int[] payloadIndex;
    public final byte[][] kinds;
    public final byte[][] payloads;

    private EventsData(int rows) {
        this.rows = rows;
        this.ts = new long[rows];
        this.tenant = new int[rows];
        this.kindIndex = new int[rows];
        this.id = new long[rows];
        this.payloadIndex = new int[rows];
        this.kinds = new byte[KIND_NAMES.length][];
        this.payloads = new byte[PAYLOADS][];
    }

    public static EventsData generate(int rows, long seed) {
        EventsData d = new EventsData(rows);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int k = 0; k < KIND_NAMES.length; k++) {
            d.kinds[k] = KIND_NAMES[k].getBytes(StandardCharsets.UTF_8);
        }
        for (int p = 0; p < PAYLOADS; p++) {
            d.payloads[p] = payload(rnd, p);
        }
        for (int r = 0; r < rows; r++) {
            long second = START_SECONDS + r / 1000 + rnd.nextInt(3);
            d.ts[r] = second;
            double u = rnd.nextDouble();
            d.tenant[r] = 1 + (int) (u * u * u * 1000);
            double v = rnd.nextDouble();
            d.kindIndex[r] = (int) (v * v * KIND_NAMES.length);
            long millis = (second - START_SECONDS) * 1000 + rnd.nextInt(1000);
            d.id[r] = (millis << 22) | rnd.nextInt(1 << 22);
            d.payloadIndex[r] = rnd.nextInt(PAYLOADS);
        }
        return d;
    }

    /** A JSON-ish document of 160..240 bytes; the random session id makes each one distinct. */
    private static byte[] payload(SplittableRandom rnd, int n) {
        int target = 160 + rnd.nextInt(81);
        StringBuilder sb = new StringBuilder(target + 64);
        sb.append("{\"n\":").append(n);
        sb.append(",\"session\":\"").append(Long.toHexString(rnd.nextLong() | 1L << 63));
        sb.append("\",\"user\":").append(rnd.nextInt(1_000_000));
        sb.append(",\"path\":\"/").append(word(rnd)).append('/').append(word(rnd));
        sb.append('/').append(rnd.nextInt(10_000)).append('"');
        sb.append(",\"ref\":\"https://").append(word(rnd)).append(".example.com/\"");
        sb.append(",\"ua\":\"Mozilla/5.0 (X11; Linux x86_64) ").append(word(rnd)).append('"');
        sb.append(",\"tags\":[");
        while (sb.length() < target - 12) {
            sb.append('"').append(word(rnd)).append("\",");
        }
        sb.setLength(sb.length() - 1);
        sb.append("],\"ms\":").append(rnd.nextInt(5000)).append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String word(SplittableRandom rnd) {
        return WORDS[rnd.nextInt(WORDS.length)];
    }

    /** Fresh, empty columns of the events table, in table order. */
    public static Block newBlock() {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < COLUMN_NAMES.size(); i++) {
            columns.add(ColumnFactory.create(COLUMN_NAMES.get(i), COLUMN_TYPES.get(i)));
        }
        return new Block(columns, COLUMN_TYPES);
    }

    /** Appends rows {@code [from, to)} to the five columns of {@code block}. */
    public void appendTo(Block block, int from, int to) {
        Column cTs = block.column(0);
        Column cTenant = block.column(1);
        Column cKind = block.column(2);
        Column cId = block.column(3);
        Column cPayload = block.column(4);
        for (int r = from; r < to; r++) {
            cTs.appendLong(ts[r]);
            cTenant.appendLong(tenant[r]);
            cKind.appendBytes(kinds[kindIndex[r]]);
            cId.appendUnsignedLong(id[r]);
            cPayload.appendBytes(payloads[payloadIndex[r]]);
        }
    }

    /**
     * The natural RowBinary path: each row straight from the arrays into {@code out}, no columns.
     */
    public void writeRowBinary(WireOutput out, int from, int to) {
        for (int r = from; r < to; r++) {
            out.writeInt32((int) ts[r]);
            out.writeInt32(tenant[r]);
            out.writeString(kinds[kindIndex[r]]);
            out.writeInt64(id[r]);
            out.writeString(payloads[payloadIndex[r]]);
        }
    }

    /** Order-independent sums the server can recompute, to check that every row arrived intact. */
    public Checksums checksums() {
        long sumTs = 0;
        long sumTenant = 0;
        long sumId = 0;
        long kindBytes = 0;
        long payloadBytes = 0;
        for (int r = 0; r < rows; r++) {
            sumTs += ts[r];
            sumTenant += tenant[r];
            sumId += id[r];
            kindBytes += kinds[kindIndex[r]].length;
            payloadBytes += payloads[payloadIndex[r]].length;
        }
        return new Checksums(rows, sumTs, sumTenant, sumId, kindBytes, payloadBytes);
    }

    /**
     * Expected results of {@link Checksums#SQL}; {@code sumId} wraps as the server's UInt64 sum.
     */
    public record Checksums(
            long rows, long sumTs, long sumTenant, long sumId, long kindBytes, long payloadBytes) {
        public static final String SQL =
                "SELECT count(), sum(toUInt32(ts)), sum(tenant), sum(id), sum(length(kind)),"
                        + " sum(length(payload)) FROM ";

        public String render() {
            return rows
                    + "\t"
                    + sumTs
                    + "\t"
                    + sumTenant
                    + "\t"
                    + Long.toUnsignedString(sumId)
                    + "\t"
                    + kindBytes
                    + "\t"
                    + payloadBytes;
        }
    }
}
