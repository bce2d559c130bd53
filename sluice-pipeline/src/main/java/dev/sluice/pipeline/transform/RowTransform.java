package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.decode.RecordException;

/**
 * A user transform over a mutable view of each row: the convenient way to write the Java SPI.
 * Resolve column names with {@link RowView#column} when the transform is created; then per row read
 * and set values by index. Wrap it with {@link RowTransforms#adapt} to get a {@link Transform}, or
 * name the class in the configuration ({@code java: {class: ...}}).
 */
@FunctionalInterface
public interface RowTransform {
    /**
     * @return false to drop the row
     * @throws RecordException to reject the record (the error policy applies)
     */
    boolean apply(RowView row) throws RecordException;
}
