package dev.sluice.rigs.run;

import dev.sluice.clickhouse.block.Block;
import dev.sluice.clickhouse.client.BlockInserter;
import dev.sluice.clickhouse.client.InsertResult;
import dev.sluice.clickhouse.client.ServerInfo;
import dev.sluice.clickhouse.format.InputFormat;
import dev.sluice.clickhouse.http.HttpConnection;
import java.util.Map;

/** Sends each block over HTTP in {@code format} instead of Native. */
final class FormatInserter implements BlockInserter {
    private final HttpConnection http;
    private final InputFormat format;

    FormatInserter(HttpConnection http, InputFormat format) {
        this.http = http;
        this.format = format;
    }

    @Override
    public InsertResult insert(
            String table, Block block, Map<String, String> settings, String queryId) {
        return http.insert(table, block, settings, queryId, format);
    }

    @Override
    public ServerInfo server() {
        return http.server();
    }

    @Override
    public boolean isOpen() {
        return http.isOpen();
    }

    @Override
    public void close() {
        http.close();
    }
}
