package dev.sluice.pipeline.decode.it;

import dev.sluice.pipeline.source.PolledRecords;

/** Splits a whole file into a batch of records, as a source would (quote-aware for CSV). */
final class Records {
    private Records() {}

    static PolledRecords split(byte[] file, boolean csvQuotes) {
        PolledRecords b = new PolledRecords();
        b.source = "file";
        b.partition = "edge";
        b.ensureDataCapacity(file.length);
        System.arraycopy(file, 0, b.data, 0, file.length);
        int start = 0;
        boolean quoted = false;
        long line = 1;
        long recordLine = 1;
        for (int i = 0; i < file.length; i++) {
            byte c = file[i];
            if (csvQuotes && c == '"') {
                quoted = !quoted; // "" inside a quoted field toggles twice
            } else if (c == '\n') {
                line++;
                if (!quoted) {
                    b.add(start, i, start, recordLine);
                    start = i + 1;
                    recordLine = line;
                }
            }
        }
        if (start < file.length) {
            b.add(start, file.length, start, recordLine);
        }
        return b;
    }

    /** The batch without its first {@code n} records. */
    static PolledRecords drop(PolledRecords b, int n) {
        PolledRecords out = new PolledRecords();
        out.source = b.source;
        out.partition = b.partition;
        out.data = b.data;
        for (int i = n; i < b.count; i++) {
            out.add(b.start[i], b.end[i], b.position[i], b.line[i]);
        }
        return out;
    }
}
