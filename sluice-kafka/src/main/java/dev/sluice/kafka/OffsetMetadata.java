package dev.sluice.kafka;

import dev.sluice.pipeline.checkpoint.LedgerEntry;
import dev.sluice.pipeline.source.Checkpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * A partition's checkpoint as the metadata string of its committed offset, so that whoever owns the
 * partition next — this host after a crash or another consumer of the group — replays exactly the
 * batches that may be in ClickHouse past the offset, with their tokens and {@code now()} (property
 * 2). The offset itself is the checkpoint's position.
 *
 * <pre>
 * s1|4f1c9a0b27e3|0+99999:1:1764741600,100000+5231:0:1764741601:g9f2c3b1a77d0e4f1.3
 *    run          batch: first-offset-minus-position + (last - first) : shard : now [: g group]
 * </pre>
 *
 * <p>A batch that gathered several partitions carries its group ({@code <hash>.<members>@<run>},
 * see {@link LedgerEntry#group}) in each member's entry, so that a member that owns them all after
 * a crash re-creates it whole, and one replayed alone looks it up under the group's token (the run:
 * members may carry others). Metadata written before the run was kept reads as before.
 *
 * <p>Offsets are written relative to the position and to each batch's first, so that a batch costs
 * some twenty bytes and the pipeline's cap of batches in flight per partition stays well within the
 * broker's {@code offset.metadata.max.bytes} (4096 by default). Metadata this code did not write
 * (another tool's commit, an older format) reads as no batches in flight.
 */
final class OffsetMetadata {
    static final String VERSION = "s1";

    private OffsetMetadata() {}

    static String encode(Checkpoint cp) {
        StringBuilder sb = new StringBuilder(32 + 24 * cp.inFlight().size());
        sb.append(VERSION).append('|').append(cp.run() == null ? "" : cp.run()).append('|');
        boolean first = true;
        for (LedgerEntry e : cp.inFlight()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(e.first() - cp.position())
                    .append('+')
                    .append(e.last() - e.first())
                    .append(':')
                    .append(e.shard())
                    .append(':')
                    .append(e.nowSeconds());
            if (e.group() != null) {
                sb.append(":g").append(e.group());
            }
        }
        return sb.toString();
    }

    /**
     * The checkpoint of {@code partition} committed at {@code offset} with {@code metadata};
     * unknown metadata gives the bare offset.
     */
    static Checkpoint decode(String partition, long offset, String metadata) {
        if (metadata == null || !metadata.startsWith(VERSION + "|")) {
            return Checkpoint.at(offset);
        }
        String[] parts = metadata.split("\\|", -1);
        if (parts.length != 3) {
            return Checkpoint.at(offset);
        }
        String run = parts[1].isEmpty() ? null : parts[1];
        List<LedgerEntry> inFlight = new ArrayList<>();
        if (!parts[2].isEmpty()) {
            try {
                for (String batch : parts[2].split(",")) {
                    int plus = batch.indexOf('+');
                    String[] rest = batch.substring(plus + 1).split(":");
                    long first = offset + Long.parseLong(batch.substring(0, plus));
                    long last = first + Long.parseLong(rest[0]);
                    String group =
                            rest.length > 3 && rest[3].startsWith("g")
                                    ? rest[3].substring(1)
                                    : null;
                    inFlight.add(
                            new LedgerEntry(
                                    partition,
                                    first,
                                    last,
                                    Integer.parseInt(rest[1]),
                                    Long.parseLong(rest[2]),
                                    group));
                }
            } catch (RuntimeException e) {
                return new Checkpoint(offset, run, List.of()); // not ours after all
            }
        }
        return new Checkpoint(offset, run, inFlight);
    }
}
