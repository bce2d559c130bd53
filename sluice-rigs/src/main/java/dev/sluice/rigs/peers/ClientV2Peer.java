package dev.sluice.rigs.peers;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.metadata.TableSchema;
import dev.sluice.rigs.ProcStat;
import dev.sluice.rigs.data.EventsData;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The official Java client, {@code com.clickhouse:client-v2}, inserting POJOs the documented way:
 * {@code getTableSchema}, {@code register}, then {@code insert(table, List)} per batch.
 *
 * <p>Two arms: the builder's defaults, and with {@code compressServerResponse(false)}. With the
 * defaults the client asks for compressed responses, which ClickHouse 18.16 answers with empty
 * bodies: {@code getTableSchema} then returns no columns and the insert sends rows without columns
 * — it reports success and lands nothing. The rig's landed-rows check shows that as a failure.
 */
final class ClientV2Peer implements Peer {
    private final boolean compressResponses;

    ClientV2Peer(boolean compressResponses) {
        this.compressResponses = compressResponses;
    }

    @Override
    public String name() {
        return compressResponses ? "client-v2-pojo-defaults" : "client-v2-pojo";
    }

    @Override
    public String description() {
        return "client-v2 0.10.0: getTableSchema + register(Event.class) + insert(table, List<Event>) per --block-rows rows"
                + (compressResponses ? ", builder defaults" : ", compressServerResponse(false)");
    }

    /** One row as client-v2 wants it: a bean whose properties are the columns. */
    public static final class Event {
        private LocalDateTime ts;
        private long tenant;
        private String kind;
        private BigInteger id;
        private String payload;

        public Event() {}

        Event(LocalDateTime ts, long tenant, String kind, BigInteger id, String payload) {
            this.ts = ts;
            this.tenant = tenant;
            this.kind = kind;
            this.id = id;
            this.payload = payload;
        }

        public LocalDateTime getTs() {
            return ts;
        }

        public void setTs(LocalDateTime ts) {
            this.ts = ts;
        }

        public long getTenant() {
            return tenant;
        }

        public void setTenant(long tenant) {
            this.tenant = tenant;
        }

        public String getKind() {
            return kind;
        }

        public void setKind(String kind) {
            this.kind = kind;
        }

        public BigInteger getId() {
            return id;
        }

        public void setId(BigInteger id) {
            this.id = id;
        }

        public String getPayload() {
            return payload;
        }

        public void setPayload(String payload) {
            this.payload = payload;
        }
    }

    /** The application's objects: built before the clock starts, as an application holds them. */
    static List<Event> events(EventsData d) {
        String[] kinds = new String[d.kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = new String(d.kinds[i], StandardCharsets.UTF_8);
        }
        String[] payloads = new String[d.payloads.length];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = new String(d.payloads[i], StandardCharsets.UTF_8);
        }
        List<Event> out = new ArrayList<>(d.rows);
        for (int r = 0; r < d.rows; r++) {
            out.add(
                    new Event(
                            LocalDateTime.ofEpochSecond(d.ts[r], 0, ZoneOffset.UTC),
                            d.tenant[r],
                            kinds[d.kindIndex[r]],
                            new BigInteger(Long.toUnsignedString(d.id[r])),
                            payloads[d.payloadIndex[r]]));
        }
        return out;
    }

    private List<Event> events;

    @Override
    public Outcome insert(PeerRun run) throws Exception {
        if (events == null) {
            events = events(run.data());
        }
        long cpu0 = ProcStat.cpuTicks("self");
        long t0 = System.nanoTime();
        long written = 0;
        boolean known = true;
        int columns;
        Client.Builder b =
                new Client.Builder()
                        .addEndpoint("http://" + run.host() + ":" + run.httpPort())
                        .setUsername(run.user())
                        .setPassword(run.password())
                        .setDefaultDatabase(run.database());
        if (!compressResponses) {
            b.compressServerResponse(false);
        }
        try (Client client = b.build()) {
            String name = run.table().substring(run.table().indexOf('.') + 1);
            TableSchema schema = client.getTableSchema(name);
            columns = schema.getColumns().size();
            client.register(Event.class, schema);
            for (int from = 0; from < events.size(); from += run.blockRows()) {
                List<Event> batch =
                        events.subList(from, Math.min(events.size(), from + run.blockRows()));
                InsertResponse r = client.insert(name, batch).get(10, TimeUnit.MINUTES);
                long w = r.getWrittenRows();
                if (w < 0) {
                    known = false;
                } else {
                    written += w;
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = ProcStat.seconds(ProcStat.cpuTicks("self") - cpu0);
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("schema_columns", columns);
        String said =
                "every insert completed without an error; getWrittenRows() "
                        + (known ? "= " + written : "= -1 (unknown)")
                        + "; getTableSchema returned "
                        + columns
                        + " column(s)";
        return new Outcome(known ? written : -1, seconds, cpu, said, extra);
    }
}
