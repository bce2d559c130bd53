package dev.sluice.pipeline.decode.avro;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Reads past one Avro value of a known schema: for writer fields no column takes (dropped, or
 * unknown under {@code ignore_unknown}), and for union branches that are skipped. Built once per
 * schema, as a tree mirroring it.
 */
abstract class Skipper {
    abstract void skip(AvroInput in) throws AvroDataException;

    /**
     * The fewest bytes a value of this schema takes: 0 for null and records of nothing, else at
     * least 1. Arrays and maps of zero-size items cannot have their counts checked against the
     * bytes left, so {@link #items} caps those.
     */
    abstract int minBytes();

    /** Most items in one block of zero-size items: a guard against a corrupt count. */
    static final long MAX_ZERO_SIZE_ITEMS = 1 << 24;

    /** Checks an array or map block count against the bytes left. */
    static void items(AvroInput in, long count, int minItemBytes) throws AvroDataException {
        if (minItemBytes > 0
                ? count > in.remaining() / minItemBytes
                : count > MAX_ZERO_SIZE_ITEMS) {
            throw new AvroDataException(
                    "the record ends inside the value (a block of "
                            + count
                            + " items at byte "
                            + in.offset()
                            + ", "
                            + in.remaining()
                            + " bytes left)");
        }
    }

    static Skipper of(Schema s) {
        return of(s, new IdentityHashMap<>());
    }

    /** {@code building} resolves recursive records (a linked list of itself) to one node. */
    private static Skipper of(Schema s, Map<Schema, Skipper> building) {
        return switch (s.getType()) {
            case NULL -> new Fixed(0);
            case BOOLEAN -> new Fixed(1);
            case FLOAT -> new Fixed(4);
            case DOUBLE -> new Fixed(8);
            case FIXED -> bytes(s.getFixedSize());
            case INT, LONG, ENUM -> new Varint();
            case STRING, BYTES -> new Sized();
            case RECORD -> {
                Skipper known = building.get(s);
                if (known != null) {
                    yield known;
                }
                Record r = new Record();
                building.put(s, r);
                List<Schema.Field> fields = s.getFields();
                r.fields = new Skipper[fields.size()];
                for (int i = 0; i < fields.size(); i++) {
                    r.fields[i] = of(fields.get(i).schema(), building);
                }
                yield r;
            }
            case ARRAY -> new Blocks(of(s.getElementType(), building), false);
            case MAP -> new Blocks(of(s.getValueType(), building), true);
            case UNION -> {
                List<Schema> types = s.getTypes();
                Skipper[] branches = new Skipper[types.size()];
                for (int i = 0; i < branches.length; i++) {
                    branches[i] = of(types.get(i), building);
                }
                yield new Union(branches);
            }
        };
    }

    private static final class Fixed extends Skipper {
        private final int n;

        Fixed(int n) {
            this.n = n;
        }

        @Override
        void skip(AvroInput in) throws AvroDataException {
            if (n == 1) {
                in.readBoolean(); // checks the byte is 0 or 1 (the only 1-byte primitive)
            } else {
                in.skip(n);
            }
        }

        @Override
        int minBytes() {
            return n;
        }
    }

    /** Fixed of size 1 is skipped as a byte, not a boolean. */
    static Skipper bytes(int n) {
        return new Skipper() {
            @Override
            void skip(AvroInput in) throws AvroDataException {
                in.skip(n);
            }

            @Override
            int minBytes() {
                return n;
            }
        };
    }

    private static final class Varint extends Skipper {
        @Override
        void skip(AvroInput in) throws AvroDataException {
            in.readLong();
        }

        @Override
        int minBytes() {
            return 1;
        }
    }

    private static final class Sized extends Skipper {
        @Override
        void skip(AvroInput in) throws AvroDataException {
            in.skip(in.readLength());
        }

        @Override
        int minBytes() {
            return 1;
        }
    }

    private static final class Record extends Skipper {
        Skipper[] fields;
        private int min = -1;

        @Override
        void skip(AvroInput in) throws AvroDataException {
            for (Skipper f : fields) {
                f.skip(in);
            }
        }

        @Override
        int minBytes() {
            if (min < 0) {
                min = 0; // a record that holds itself (only through a union or array) adds 0
                int sum = 0;
                for (Skipper f : fields) {
                    sum += f.minBytes();
                }
                min = sum;
            }
            return min;
        }
    }

    private static final class Blocks extends Skipper {
        private final Skipper item;
        private final boolean map;

        Blocks(Skipper item, boolean map) {
            this.item = item;
            this.map = map;
        }

        @Override
        void skip(AvroInput in) throws AvroDataException {
            for (long n = in.readBlockCount(); n != 0; n = in.readBlockCount()) {
                long size = in.blockBytes();
                if (size >= 0) {
                    in.skip((int) size); // the writer gave the block's size: jump over it
                    continue;
                }
                items(in, n, map ? 1 : item.minBytes());
                for (long i = 0; i < n; i++) {
                    if (map) {
                        in.skip(in.readLength());
                    }
                    item.skip(in);
                }
            }
        }

        @Override
        int minBytes() {
            return 1;
        }
    }

    private static final class Union extends Skipper {
        private final Skipper[] branches;

        Union(Skipper[] branches) {
            this.branches = branches;
        }

        @Override
        void skip(AvroInput in) throws AvroDataException {
            branches[UnionIndex.read(in, branches.length)].skip(in);
        }

        @Override
        int minBytes() {
            return 1;
        }
    }
}
