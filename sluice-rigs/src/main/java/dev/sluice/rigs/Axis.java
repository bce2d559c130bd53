package dev.sluice.rigs;

import java.util.List;

/**
 * One axis of a rig: a flag that takes a comma-separated list of values.
 *
 * @param defaults the values of a full run
 * @param quick the values of a {@code --quick} run
 */
public record Axis(String name, List<String> defaults, List<String> quick, String description) {
    public Axis {
        defaults = List.copyOf(defaults);
        quick = List.copyOf(quick);
    }
}
