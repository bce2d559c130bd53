package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.TargetColumns;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** User transforms as a plug-in would write them, found by class name or through ServiceLoader. */
public final class TestTransforms {
    private TestTransforms() {}

    /** Provider "test-upper": column upper = upper-case of the column named by option "from". */
    public static final class UpperProvider implements TransformProvider {
        @Override
        public String name() {
            return "test-upper";
        }

        @Override
        public Transform create(TargetColumns columns, Map<String, Object> options) {
            RowView view = new RowView(columns);
            int from = view.column((String) options.get("from"));
            int to = view.column("upper");
            return RowTransforms.adapt(
                    row -> {
                        row.setString(to, row.getString(from).toUpperCase(Locale.ROOT));
                        return true;
                    },
                    view,
                    List.of("upper"));
        }
    }

    /** Replaces n with 2n: a transform that changes a decoded value. */
    public static final class Doubler implements RowTransform {
        private int n = -1;

        @Override
        public boolean apply(RowView row) throws RecordException {
            if (n < 0) {
                n = row.column("n");
            }
            row.setLong(n, row.getLong(n) * 2);
            return true;
        }
    }

    /** Drops rows whose n is not a multiple of 4 (after the doubling). */
    public static final class DropOdd implements RowTransform {
        @Override
        public boolean apply(RowView row) {
            return row.getLong(row.column("n")) % 4 == 0;
        }
    }
}
