package dev.sluice.clickhouse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/**
 * Which of a module's packages use which Sluice packages, as the JDK's {@code jdeps} reads them
 * from the compiled classes (so a dependency the compiler inlined, a constant, is not seen), and
 * the cycles among them: the check that keeps the packages layered (docs/adr/0012-table-module.md).
 */
public final class PackageGraph {
    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+.*$");

    /** Each package of the module and the Sluice packages it uses, itself excluded. */
    private final Map<String, Set<String>> uses;

    private PackageGraph(Map<String, Set<String>> uses) {
        this.uses = uses;
    }

    /** The graph of the classes directory (or jar) that holds {@code anyClassOfTheModule}. */
    public static PackageGraph of(Class<?> anyClassOfTheModule) {
        Path classes;
        try {
            classes =
                    Path.of(
                            anyClassOfTheModule
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        ToolProvider jdeps =
                ToolProvider.findFirst("jdeps")
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "no jdeps in this JDK (module jdk.jdeps): the"
                                                        + " package check needs a full JDK"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc =
                jdeps.run(
                        new PrintWriter(out),
                        new PrintWriter(err),
                        "-verbose:package",
                        "-filter:none",
                        "-e",
                        "dev\\.sluice\\..*",
                        classes.toString());
        if (rc != 0) {
            throw new AssertionError("jdeps " + classes + " exited with " + rc + ": " + err);
        }
        Map<String, Set<String>> uses = new TreeMap<>();
        for (String line : out.toString().split("\\R")) {
            Matcher m = EDGE.matcher(line);
            if (m.matches()) {
                Set<String> targets = uses.computeIfAbsent(m.group(1), p -> new TreeSet<>());
                if (!m.group(1).equals(m.group(2))) {
                    targets.add(m.group(2));
                }
            }
        }
        return new PackageGraph(uses);
    }

    /** The module's packages (those with classes). */
    public Set<String> packages() {
        return uses.keySet();
    }

    /** The Sluice packages {@code pkg} uses, itself excluded. */
    public Set<String> uses(String pkg) {
        return uses.getOrDefault(pkg, Set.of());
    }

    /** A graph given as each package and the packages it uses (for the detector's own test). */
    static PackageGraph ofUses(Map<String, Set<String>> uses) {
        return new PackageGraph(new TreeMap<>(uses));
    }

    /**
     * Cycles among the module's packages, each as the shortest path that closes it ({@code a -> b
     * -> a}); a package on one reported cycle starts no other. Empty when the packages are layered.
     */
    public List<String> cycles() {
        List<String> cycles = new ArrayList<>();
        Set<String> reported = new TreeSet<>();
        for (String start : uses.keySet()) {
            if (reported.contains(start)) {
                continue;
            }
            List<String> path = cycleThrough(start);
            if (path != null) {
                reported.addAll(path);
                cycles.add(String.join(" -> ", path));
            }
        }
        return cycles;
    }

    /** A shortest path from {@code start} back to itself, or null (breadth first). */
    private List<String> cycleThrough(String start) {
        Map<String, String> cameFrom = new TreeMap<>();
        List<String> frontier = new ArrayList<>(List.of(start));
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (String p : frontier) {
                for (String q : uses(p)) {
                    if (q.equals(start)) {
                        List<String> path = new ArrayList<>(List.of(start));
                        for (String at = p; !at.equals(start); at = cameFrom.get(at)) {
                            path.add(1, at);
                        }
                        path.add(start);
                        return path;
                    }
                    if (!cameFrom.containsKey(q) && uses.containsKey(q)) {
                        cameFrom.put(q, p);
                        next.add(q);
                    }
                }
            }
            frontier = next;
        }
        return null;
    }
}
