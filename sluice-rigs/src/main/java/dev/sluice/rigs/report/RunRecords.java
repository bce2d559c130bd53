package dev.sluice.rigs.report;

import dev.sluice.rigs.Jsonl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The records of one results file, with the label the report gives its run (the directory's name).
 */
public record RunRecords(String run, Path file, List<Map<String, Object>> records) {

    /**
     * Reads {@code DIR/results.jsonl} (or a results file given directly) of every argument.
     *
     * @throws IllegalArgumentException for a missing file or a bad record, naming it
     */
    public static List<RunRecords> load(List<Path> dirsOrFiles) throws IOException {
        List<RunRecords> out = new ArrayList<>();
        for (Path p : dirsOrFiles) {
            if (!Files.exists(p)) {
                throw new IllegalArgumentException("no such results directory or file: " + p);
            }
            Path file = Files.isDirectory(p) ? p.resolve(Jsonl.FILE_NAME) : p;
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException(
                        "no results file "
                                + file
                                + " (expected a directory written by sluice bench)");
            }
            Path dir = file.toAbsolutePath().getParent();
            String label =
                    dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
            String unique = label;
            for (int n = 2; taken(out, unique); n++) {
                unique = label + " (" + n + ")";
            }
            out.add(new RunRecords(unique, file, Jsonl.read(file)));
        }
        return out;
    }

    private static boolean taken(List<RunRecords> runs, String label) {
        return runs.stream().anyMatch(r -> r.run.equals(label));
    }
}
