package dev.sluice.pipeline.source.file;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Turns the configured inputs into files, in a stable order:
 *
 * <ul>
 *   <li>a file is itself;
 *   <li>a directory is the files directly in it (not its subdirectories), hidden ones (a leading
 *       dot) left out, sorted by name;
 *   <li>a glob ({@code *}, {@code ?}, {@code [..]}, {@code {a,b}}; {@code **} crosses directories
 *       and {@code **}{@code /} also matches no directory at all) is every regular file it matches,
 *       sorted by path.
 * </ul>
 *
 * Inputs keep the order they were given in; a file named twice is read once, at its first place.
 */
public final class InputResolver {
    private final List<String> patterns;

    public InputResolver(List<String> patterns) {
        this.patterns = List.copyOf(patterns);
    }

    /**
     * @param allowMissing follow mode: an input that matches nothing (yet) is not an error
     * @throws IllegalArgumentException an input names nothing (unless {@code allowMissing})
     */
    public List<InputFile> resolve(boolean allowMissing) throws IOException {
        Map<String, InputFile> files = new LinkedHashMap<>();
        for (String pattern : patterns) {
            if (pattern.equals("-")) {
                throw new IllegalArgumentException("'-' (stdin) cannot be mixed with files");
            }
            List<InputFile> found = isGlob(pattern) ? glob(pattern) : plain(Path.of(pattern));
            if (found.isEmpty() && !allowMissing) {
                throw new IllegalArgumentException(
                        (isGlob(pattern) ? "no file matches " : "no such file or no files in ")
                                + pattern);
            }
            for (InputFile f : found) {
                files.putIfAbsent(f.name(), f);
            }
        }
        return List.copyOf(files.values());
    }

    private static boolean isGlob(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            switch (pattern.charAt(i)) {
                case '*', '?', '[', '{' -> {
                    return true;
                }
                default -> {}
            }
        }
        return false;
    }

    private static List<InputFile> plain(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            List<InputFile> files = new ArrayList<>();
            try (Stream<Path> listing = Files.list(path)) {
                for (Path p : listing.sorted().toList()) {
                    if (!p.getFileName().toString().startsWith(".") && Files.isRegularFile(p)) {
                        files.add(InputFile.of(p, Files.size(p)));
                    }
                }
            }
            return files;
        }
        try {
            return List.of(InputFile.of(path, Files.size(path)));
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    private static List<InputFile> glob(String pattern) throws IOException {
        String[] segments = pattern.split("/", -1);
        int firstGlob = 0;
        while (!isGlob(segments[firstGlob])) {
            firstGlob++;
        }
        String baseText = String.join("/", List.of(segments).subList(0, firstGlob));
        Path base = firstGlob == 0 ? Path.of("") : Path.of(baseText.isEmpty() ? "/" : baseText);
        String rest = String.join("/", List.of(segments).subList(firstGlob, segments.length));
        int depth = rest.contains("**") ? Integer.MAX_VALUE : segments.length - firstGlob;
        List<PathMatcher> matchers = new ArrayList<>();
        for (String variant : withoutDoubleStarSlashes(rest)) {
            matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + variant));
        }
        if (!Files.isDirectory(base)) {
            return List.of();
        }
        List<Path> matched = new ArrayList<>();
        Files.walkFileTree(
                base,
                EnumSet.of(FileVisitOption.FOLLOW_LINKS),
                depth,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        Path relative = base.relativize(file);
                        if (attrs.isRegularFile()
                                && matchers.stream().anyMatch(m -> m.matches(relative))) {
                            matched.add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
        matched.sort(null);
        List<InputFile> files = new ArrayList<>(matched.size());
        for (Path p : matched) {
            files.add(InputFile.of(p, Files.size(p)));
        }
        return files;
    }

    /**
     * {@code a/**}{@code /b} should also match {@code a/b}, which Java's glob does not: every
     * combination of the pattern with some of its {@code **}{@code /} removed.
     */
    private static List<String> withoutDoubleStarSlashes(String pattern) {
        int at = pattern.indexOf("**/");
        if (at < 0) {
            return List.of(pattern);
        }
        List<String> variants = new ArrayList<>();
        for (String tail : withoutDoubleStarSlashes(pattern.substring(at + 3))) {
            variants.add(pattern.substring(0, at + 3) + tail);
            variants.add(pattern.substring(0, at) + tail);
        }
        return variants;
    }
}
