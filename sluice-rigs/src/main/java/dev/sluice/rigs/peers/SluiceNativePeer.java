package dev.sluice.rigs.peers;

import dev.sluice.clickhouse.client.Insert;
import dev.sluice.clickhouse.client.InsertOptions;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.NativeConnection;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.rigs.ProcStat;
import dev.sluice.rigs.data.EventsData;
import java.util.List;
import java.util.Map;

/** Sluice's library over the native protocol: rows appended column by column, LZ4 frames. */
final class SluiceNativePeer implements Peer {
    @Override
    public String name() {
        return "sluice-native";
    }

    @Override
    public String description() {
        return "NativeConnection.insert: columns appended from memory, blocks of --block-rows, LZ4";
    }

    @Override
    public Outcome insert(PeerRun run) {
        EventsData d = run.data();
        long cpu0 = ProcStat.cpuTicks("self");
        long t0 = System.nanoTime();
        InsertResult result;
        try (NativeConnection c = NativeConnection.open(run.nativeUrl() + "?compression=lz4");
                Insert insert =
                        c.insert(
                                run.table(),
                                List.of(),
                                Map.of(),
                                InsertOptions.DEFAULTS.withMaxBlockRows(run.blockRows()))) {
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
                payload.appendBytes(d.payloads[d.payloadIndex[r]]);
                insert.endRow();
            }
            result = insert.finish();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = ProcStat.seconds(ProcStat.cpuTicks("self") - cpu0);
        return new Outcome(
                result.rows(),
                seconds,
                cpu,
                "finish() acknowledged " + result.rows() + " rows",
                Map.of(
                        "uncompressed_bytes",
                        result.uncompressedBytes(),
                        "client_wire_bytes",
                        result.wireBytes()));
    }
}
