package dev.sluice.pipeline.transform;

import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.source.PolledRecords;
import java.util.ArrayList;
import java.util.List;

/**
 * How the runtime applies a chain of transforms: the expression transforms after the last other one
 * ({@code java}, the metadata columns) are evaluated column-wise over ranges of rows ({@link
 * #stage()}); everything before, expression transforms included, runs row by row as the row is
 * built, because a row-wise transform may read what an expression before it computed (ADR 0010).
 */
public final class TransformChain {
    private final Transform[] rowWise;
    private final ExpressionStage stage;

    private TransformChain(Transform[] rowWise, ExpressionStage stage) {
        this.rowWise = rowWise;
        this.stage = stage;
    }

    public static TransformChain of(List<Transform> transforms) {
        int split = transforms.size();
        while (split > 0 && transforms.get(split - 1) instanceof ExpressionTransform) {
            split--;
        }
        List<ExpressionTransform> trailing = new ArrayList<>();
        for (Transform t : transforms.subList(split, transforms.size())) {
            trailing.add((ExpressionTransform) t);
        }
        return new TransformChain(
                transforms.subList(0, split).toArray(new Transform[0]),
                trailing.isEmpty() ? null : new ExpressionStage(trailing));
    }

    /**
     * Applies the row-wise part to the row being built from record {@code index}.
     *
     * @param nowSeconds the batch's {@code now()}, for expression transforms among them
     * @return false when a transform drops the row
     */
    public boolean applyRow(RowTarget row, PolledRecords batch, int index, long nowSeconds)
            throws RecordException {
        for (Transform t : rowWise) {
            boolean keep =
                    t instanceof ExpressionTransform e
                            ? e.applyRow(row, batch, index, nowSeconds)
                            : t.apply(row, batch, index);
            if (!keep) {
                return false;
            }
        }
        return true;
    }

    /** The column-wise part, or null when the chain ends with no expression transform. */
    public ExpressionStage stage() {
        return stage;
    }
}
