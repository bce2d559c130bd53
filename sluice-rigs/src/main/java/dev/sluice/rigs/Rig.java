package dev.sluice.rigs;

import java.util.List;
import java.util.Map;

/** One of {@code sluice bench}'s rigs. */
public interface Rig {
    /** The subcommand's name, and the records' {@code rig}. */
    String name();

    /** One line for the help. */
    String description();

    /** Its axes, in the order arms list them. */
    List<Axis> axes();

    /**
     * Checks the axis values before anything is started.
     *
     * @throws IllegalArgumentException naming the flag and the value
     */
    default void check(Map<String, List<String>> axes) {}

    /**
     * Runs every arm and repetition, appending a record for each to {@code ctx}'s results.
     *
     * @param axes every axis of {@link #axes()} with its values (defaults already applied)
     */
    void run(BenchContext ctx, Map<String, List<String>> axes) throws Exception;
}
