package dev.sluice.rigs.peers;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.http.HttpConnection;
import dev.sluice.rigs.ProcStat;
import dev.sluice.rigs.data.EventsData;
import java.util.Map;

/** Sluice's library over HTTP: the same columns, Native blocks in LZ4 ClickHouse frames. */
final class SluiceHttpPeer implements Peer {
    @Override
    public String name() {
        return "sluice-http";
    }

    @Override
    public String description() {
        return "HttpConnection.insert: a Native block per --block-rows rows, LZ4 frames (decompress=1)";
    }

    @Override
    public Outcome insert(PeerRun run) {
        EventsData d = run.data();
        long cpu0 = ProcStat.cpuTicks("self");
        long t0 = System.nanoTime();
        long rows = 0;
        long wire = 0;
        try (HttpConnection c =
                HttpConnection.open(ConnectionConfig.parse(run.httpUrl() + "?compression=lz4"))) {
            Block block = EventsData.newBlock();
            for (int from = 0; from < d.rows; from += run.blockRows()) {
                block.reset();
                d.appendTo(block, from, Math.min(d.rows, from + run.blockRows()));
                InsertResult r = c.insert(run.table(), block, Map.of(), null);
                rows += r.rows();
                wire += r.wireBytes();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = ProcStat.seconds(ProcStat.cpuTicks("self") - cpu0);
        return new Outcome(
                rows,
                seconds,
                cpu,
                "every POST acknowledged; " + rows + " rows",
                Map.of("client_wire_bytes", wire));
    }
}
