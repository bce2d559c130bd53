package dev.sluice.pipeline.source.file;

import java.util.Locale;

/** How a file is compressed, told by its extension. */
public enum Compression {
    NONE,
    GZIP,
    ZSTD;

    /** {@code .gz}/{@code .gzip} → GZIP, {@code .zst}/{@code .zstd} → ZSTD, else NONE. */
    public static Compression of(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz") || name.endsWith(".gzip")) {
            return GZIP;
        }
        if (name.endsWith(".zst") || name.endsWith(".zstd")) {
            return ZSTD;
        }
        return NONE;
    }

    /** The file name without this compression's extension. */
    String strip(String fileName) {
        if (this == NONE) {
            return fileName;
        }
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? fileName : fileName.substring(0, dot);
    }
}
