package dev.sluice.rigs.peers;

import dev.sluice.rigs.data.EventsData;
import dev.sluice.rigs.data.EventsFiles;
import java.io.IOException;
import java.nio.file.Path;

/** The rows as the file-reading clients take them: Native, TSV and NDJSON. */
record PeerFiles(Path nativeFile, Path tsv, Path ndjson) {

    static PeerFiles write(EventsData data, int blockRows, Path dir) throws IOException {
        PeerFiles f =
                new PeerFiles(
                        dir.resolve("events.native"),
                        dir.resolve("events.tsv"),
                        dir.resolve("events.ndjson"));
        EventsFiles.writeNative(data, blockRows, f.nativeFile);
        EventsFiles.writeTsv(data, f.tsv);
        EventsFiles.writeRowsNdjson(data, f.ndjson);
        return f;
    }
}
