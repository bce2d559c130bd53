package dev.sluice.pipeline.source.file;

import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.util.List;
import java.util.Locale;

/**
 * The input format a file name implies ({@code auto}): {@code .ndjson}, {@code .jsonl} and {@code
 * .json} are JSON (one object per line), {@code .csv} is CSV, {@code .tsv} and {@code .tab} are TSV
 * — after dropping a {@code .gz} or {@code .zst} suffix.
 */
public final class InputFormats {
    private InputFormats() {}

    /** The format of one file name or glob, or null when its extension says nothing. */
    public static Format detect(String fileName) {
        String name = Compression.of(fileName).strip(fileName).toLowerCase(Locale.ROOT);
        if (name.endsWith(".ndjson") || name.endsWith(".jsonl") || name.endsWith(".json")) {
            return Format.JSON;
        }
        if (name.endsWith(".csv")) {
            return Format.CSV;
        }
        if (name.endsWith(".tsv") || name.endsWith(".tab")) {
            return Format.TSV;
        }
        return null;
    }

    /**
     * The one format all of {@code paths} imply.
     *
     * @throws IllegalArgumentException when a path's extension says nothing (a directory, {@code
     *     -}) or two paths disagree
     */
    public static Format detect(List<String> paths) {
        Format found = null;
        for (String p : paths) {
            Format f = detect(p);
            if (f == null) {
                throw new IllegalArgumentException(
                        "cannot tell the input format of '"
                                + p
                                + "' from its extension (.ndjson, .jsonl, .json, .csv, .tsv, .tab,"
                                + " optionally .gz or .zst): name the format");
            }
            if (found != null && f != found) {
                throw new IllegalArgumentException(
                        "the inputs mix formats ("
                                + found.name().toLowerCase(Locale.ROOT)
                                + " and "
                                + f.name().toLowerCase(Locale.ROOT)
                                + "): one pipeline reads one format");
            }
            found = f;
        }
        if (found == null) {
            throw new IllegalArgumentException("no input to tell the format from");
        }
        return found;
    }
}
