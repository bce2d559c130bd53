package dev.sluice.pipeline.decode.avro;

/** The branch index that starts a union value. */
final class UnionIndex {
    private UnionIndex() {}

    static int read(AvroInput in, int branches) throws AvroDataException {
        int at = in.offset();
        int i = in.readInt();
        if (i < 0 || i >= branches) {
            throw new AvroDataException(
                    "malformed union at byte "
                            + at
                            + ": branch "
                            + i
                            + " does not exist (the union has "
                            + branches
                            + ")");
        }
        return i;
    }
}
