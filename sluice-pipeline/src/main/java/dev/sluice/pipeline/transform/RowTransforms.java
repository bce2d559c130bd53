package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.List;

/** Turns a {@link RowTransform} into a {@link Transform}. */
public final class RowTransforms {
    private RowTransforms() {}

    /**
     * @param produces the columns the transform computes (it may leave one unset in a row: the
     *     column's default is appended then); other columns it may read and replace
     */
    public static Transform adapt(RowTransform transform, RowView view, List<String> produces) {
        int[] produced = produces.stream().mapToInt(view::column).toArray();
        return new Transform() {
            @Override
            public int[] producedColumns() {
                return produced.clone();
            }

            @Override
            public boolean apply(RowTarget row, PolledRecords batch, int index)
                    throws RecordException {
                view.bind(row, batch, index);
                boolean keep = transform.apply(view);
                if (keep) {
                    for (int c : produced) {
                        if (!view.has(c)) {
                            row.block().column(c).appendDefault();
                        }
                    }
                }
                return keep;
            }

            @Override
            public String toString() {
                return transform + " on " + view.target().table().qualifiedName();
            }
        };
    }
}
