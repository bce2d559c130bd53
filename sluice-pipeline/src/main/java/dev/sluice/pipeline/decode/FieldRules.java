package dev.sluice.pipeline.decode;

import java.util.Map;
import java.util.Set;

/**
 * How input fields map to columns beyond "same name": fields renamed to another column, and fields
 * dropped (read past, never an error). The rename and drop transforms are these rules — they change
 * the decoder's mapping, not the rows — and {@code Transforms.fieldRules} builds them.
 *
 * @param renames input field name → column name
 * @param drops input field names to ignore
 */
public record FieldRules(Map<String, String> renames, Set<String> drops) {
    public static final FieldRules NONE = new FieldRules(Map.of(), Set.of());

    public FieldRules {
        renames = Map.copyOf(renames);
        drops = Set.copyOf(drops);
    }

    /** The column an input field feeds by name: its rename, or the column of the same name. */
    public String columnFor(String field) {
        return renames.getOrDefault(field, field);
    }

    /** The input field a column is renamed from, or null when none is. */
    public String renamedFrom(String column) {
        for (Map.Entry<String, String> e : renames.entrySet()) {
            if (e.getValue().equals(column)) {
                return e.getKey();
            }
        }
        return null;
    }
}
