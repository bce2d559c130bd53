package dev.sluice.pipeline.source.file;

import dev.sluice.pipeline.spec.PipelineSpec.Format;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The input format a file name implies ({@code auto}): {@code .ndjson}, {@code .jsonl} and {@code
 * .json} are JSON (one object per line), {@code .csv} is CSV, {@code .tsv} and {@code .tab} are TSV
 * — after dropping a {@code .gz} or {@code .zst} suffix.
 *
 * <p>A glob or directory whose own name says nothing ({@code /data/*}, {@code /data}) is judged by
 * the files it matches, each by its own name, so {@code part1.csv.gz} and {@code part2.csv.zst}
 * together are CSV; only formats that really differ are refused.
 */
public final class InputFormats {
    private static final String EXTENSIONS =
            "(.ndjson, .jsonl, .json, .csv, .tsv, .tab, optionally .gz or .zst)";

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
     * The one format all of {@code paths} imply: a path by its own extension, else (a glob or a
     * directory) every file it matches by its own.
     *
     * @throws IllegalArgumentException when a file's extension says nothing, a glob or directory
     *     matches no file to judge by, or two inputs' formats differ; the message names them
     */
    public static Format detect(List<String> paths) {
        Found found = null;
        for (String p : paths) {
            Format f = detect(p);
            if (f != null) {
                found = agree(found, new Found(f, p));
                continue;
            }
            if (p.equals("-")) {
                throw new IllegalArgumentException(
                        "cannot tell the input format of stdin (-): name the format");
            }
            List<InputFile> files = matched(p);
            if (files.isEmpty()) {
                throw new IllegalArgumentException(
                        "cannot tell the input format of '"
                                + p
                                + "': its name has no known extension "
                                + EXTENSIONS
                                + " and it matches no file yet: name the format");
            }
            for (InputFile file : files) {
                Format g = detect(file.name());
                if (g == null) {
                    throw new IllegalArgumentException(
                            "cannot tell the input format of '"
                                    + file.name()
                                    + "' (matched by '"
                                    + p
                                    + "') from its extension "
                                    + EXTENSIONS
                                    + ": name the format");
                }
                found = agree(found, new Found(g, file.name()));
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("no input to tell the format from");
        }
        return found.format();
    }

    /** What an input implied, and which input: for the message when two disagree. */
    private record Found(Format format, String from) {}

    private static Found agree(Found before, Found now) {
        if (before != null && before.format() != now.format()) {
            throw new IllegalArgumentException(
                    "the inputs mix formats: "
                            + label(before.format())
                            + " ('"
                            + before.from()
                            + "') and "
                            + label(now.format())
                            + " ('"
                            + now.from()
                            + "'); one pipeline reads one format");
        }
        return before != null ? before : now;
    }

    private static List<InputFile> matched(String pattern) {
        try {
            return new InputResolver(List.of(pattern)).resolve(true);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot list '" + pattern + "' to tell its format: " + e.getMessage(), e);
        }
    }

    private static String label(Format f) {
        return f.name().toLowerCase(Locale.ROOT);
    }
}
