package dev.sluice.rigs.compression;

import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.rigs.data.EventsData;
import dev.sluice.rigs.data.EventsFiles;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** The compression rig's data: what the rows are, and how they are appended to an insert. */
interface Dataset {
    String name();

    String columnsDdl();

    int rows();

    /** Appends every row to {@code insert}'s columns. */
    void append(Insert insert);

    /**
     * {@code SELECT ...} of order-independent sums the loaded table must show, and their values.
     */
    String sumsSql();

    String expectedSums();

    /** The events rows: payloads from a 2,048-text arena (low entropy: flatters compression). */
    static Dataset low(int rows, long seed) {
        EventsData d = EventsData.generate(rows, seed);
        return new Dataset() {
            public String name() {
                return "low";
            }

            public String columnsDdl() {
                return EventsData.COLUMNS_DDL;
            }

            public int rows() {
                return d.rows;
            }

            public void append(Insert insert) {
                appendEvents(insert, d, d.payloads, d.payloadIndex);
            }

            public String sumsSql() {
                return EventsData.Checksums.SQL;
            }

            public String expectedSums() {
                return d.checksums().render();
            }
        };
    }

    /** The events rows with a fresh random ~200-byte payload per row (high entropy). */
    static Dataset high(int rows, long seed) {
        EventsData d = EventsData.generate(rows, seed);
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5eed);
        byte[][] payloads = new byte[rows][];
        int[] index = new int[rows];
        long payloadBytes = 0;
        for (int r = 0; r < rows; r++) {
            byte[] p = new byte[160 + rnd.nextInt(81)];
            for (int i = 0; i < p.length; i++) {
                p[i] = (byte) (33 + rnd.nextInt(94)); // printable ASCII, uniformly random
            }
            payloads[r] = p;
            index[r] = r;
            payloadBytes += p.length;
        }
        EventsData.Checksums c = d.checksums();
        String sums =
                new EventsData.Checksums(
                                c.rows(),
                                c.sumTs(),
                                c.sumTenant(),
                                c.sumId(),
                                c.kindBytes(),
                                payloadBytes)
                        .render();
        return new Dataset() {
            public String name() {
                return "high";
            }

            public String columnsDdl() {
                return EventsData.COLUMNS_DDL;
            }

            public int rows() {
                return d.rows;
            }

            public void append(Insert insert) {
                appendEvents(insert, d, payloads, index);
            }

            public String sumsSql() {
                return EventsData.Checksums.SQL;
            }

            public String expectedSums() {
                return sums;
            }
        };
    }

    /** ~700-byte JSON events, four fields extracted and the whole line in {@code raw}. */
    static Dataset json700(int rows, long seed) {
        EventsFiles.JsonRows j = EventsFiles.jsonRows(rows, seed);
        long ts = 0;
        long tenant = 0;
        long id = 0;
        long kind = 0;
        long raw = 0;
        for (int r = 0; r < rows; r++) {
            ts += j.ts()[r];
            tenant += j.tenant()[r];
            id += j.id()[r];
            kind += j.kind()[r].length();
            raw += j.raw()[r].length;
        }
        String sums = new EventsFiles.Sums(rows, ts, tenant, id, kind, raw).render();
        byte[][] kinds = new byte[rows][];
        for (int r = 0; r < rows; r++) {
            kinds[r] = j.kind()[r].getBytes(StandardCharsets.UTF_8);
        }
        return new Dataset() {
            public String name() {
                return "json700";
            }

            public String columnsDdl() {
                return EventsFiles.JSON_COLUMNS_DDL;
            }

            public int rows() {
                return rows;
            }

            public void append(Insert insert) {
                Column cTs = insert.column("ts");
                Column cTenant = insert.column("tenant");
                Column cKind = insert.column("kind");
                Column cId = insert.column("id");
                Column cRaw = insert.column("raw");
                for (int r = 0; r < rows; r++) {
                    cTs.appendLong(j.ts()[r]);
                    cTenant.appendLong(j.tenant()[r]);
                    cKind.appendBytes(kinds[r]);
                    cId.appendUnsignedLong(j.id()[r]);
                    cRaw.appendBytes(j.raw()[r]);
                    insert.endRow();
                }
            }

            public String sumsSql() {
                return EventsFiles.JSON_SUMS_SQL;
            }

            public String expectedSums() {
                return sums;
            }
        };
    }

    private static void appendEvents(
            Insert insert, EventsData d, byte[][] payloads, int[] payloadIndex) {
        Column ts = insert.column("ts");
        Column tenant = insert.column("tenant");
        Column kind = insert.column("kind");
        Column id = insert.column("id");
        Column payload = insert.column("payload");
        for (int r = 0; r < d.rows; r++) {
            ts.appendLong(d.ts[r]);
            tenant.appendLong(d.tenant[r]);
            kind.appendBytes(d.kinds[d.kindIndex[r]]);
            id.appendUnsignedLong(d.id[r]);
            payload.appendBytes(payloads[payloadIndex[r]]);
            insert.endRow();
        }
    }
}
