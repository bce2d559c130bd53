package dev.sluice.pipeline.decode.avro;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converter;
import java.nio.charset.StandardCharsets;

/**
 * Readers of Avro's primitive types, enums and unions: each hands the value to the column's
 * converter in the shape it has (an integer, a double, a boolean, bytes), so the same conversion
 * rules apply as for JSON and TSV (docs/formats.md). Strings and bytes go to the converter straight
 * from the record's bytes.
 */
final class ScalarReaders {
    private ScalarReaders() {}

    static final class Null extends ValueReader {
        private final Converter conv;

        Null(Converter conv) {
            this.conv = conv;
        }

        @Override
        boolean read(AvroInput in, Column c) {
            if (conv.nullable()) {
                conv.nul(c);
                return true;
            }
            return false;
        }
    }

    static final class Bool extends ValueReader {
        private final Converter conv;

        Bool(Converter conv) {
            this.conv = conv;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            conv.bool(c, in.readBoolean());
            return true;
        }
    }

    /** Avro int (32 bits) and long. */
    static final class IntOrLong extends ValueReader {
        private final Converter conv;
        private final boolean wide;

        IntOrLong(Converter conv, boolean wide) {
            this.conv = conv;
            this.wide = wide;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            conv.integer(c, wide ? in.readLong() : in.readInt());
            return true;
        }
    }

    static final class Float32 extends ValueReader {
        private final Converter conv;
        private final boolean asText;

        /**
         * @param asText the column keeps text: write the float's own shortest form ({@code 0.1},
         *     not the double {@code 0.10000000149011612})
         */
        Float32(Converter conv, boolean asText) {
            this.conv = conv;
            this.asText = asText;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            float f = in.readFloat();
            if (asText) {
                byte[] t = Float.toString(f).getBytes(StandardCharsets.US_ASCII);
                conv.number(c, t, 0, t.length);
            } else {
                conv.floating(c, f);
            }
            return true;
        }
    }

    static final class Float64 extends ValueReader {
        private final Converter conv;

        Float64(Converter conv) {
            this.conv = conv;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            conv.floating(c, in.readDouble());
            return true;
        }
    }

    /** Avro string and bytes: the bytes as they are in the record, as text. */
    static final class Text extends ValueReader {
        private final Converter conv;

        Text(Converter conv) {
            this.conv = conv;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            int n = in.readLength();
            conv.text(c, in.bytes(), in.position(), n);
            in.skip(n);
            return true;
        }
    }

    static final class Fixed extends ValueReader {
        private final Converter conv;
        private final int size;

        Fixed(Converter conv, int size) {
            this.conv = conv;
            this.size = size;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            in.require(size);
            conv.text(c, in.bytes(), in.position(), size);
            in.skip(size);
            return true;
        }
    }

    /**
     * An Avro enum: its symbol as text (String, LowCardinality(String), FixedString), or — for an
     * Enum column — the value of the entry of the same name, resolved when the plan is built.
     */
    static final class EnumSymbol extends ValueReader {
        private final Converter conv;
        private final byte[][] symbols;
        private final String avroName;

        /** The Enum column's value per symbol, {@link #NO_VALUE} when it has no such name. */
        private final int[] values;

        static final int NO_VALUE = Integer.MIN_VALUE;

        EnumSymbol(Converter conv, byte[][] symbols, String avroName, int[] values) {
            this.conv = conv;
            this.symbols = symbols;
            this.avroName = avroName;
            this.values = values;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            int at = in.offset();
            int i = in.readInt();
            if (i < 0 || i >= symbols.length) {
                throw new AvroDataException(
                        "malformed enum at byte "
                                + at
                                + ": symbol "
                                + i
                                + " does not exist ("
                                + avroName
                                + " has "
                                + symbols.length
                                + ")");
            }
            if (values == null) {
                conv.text(c, symbols[i], 0, symbols[i].length);
            } else if (values[i] == NO_VALUE) {
                throw new ConversionException(
                        "'"
                                + new String(symbols[i], StandardCharsets.UTF_8)
                                + "' (a symbol of "
                                + avroName
                                + ") is not a name of "
                                + conv.type().typeName());
            } else {
                conv.integer(c, values[i]);
            }
            return true;
        }
    }

    static final class Union extends ValueReader {
        private final ValueReader[] branches;

        Union(ValueReader[] branches) {
            this.branches = branches;
        }

        @Override
        boolean read(AvroInput in, Column c) throws AvroDataException {
            return branches[UnionIndex.read(in, branches.length)].read(in, c);
        }
    }

    /**
     * A union branch whose type the column cannot take, while other branches can: a record error
     * when a value takes this branch.
     */
    static final class Refused extends ValueReader {
        private final String reason;

        Refused(String reason) {
            this.reason = reason;
        }

        @Override
        boolean read(AvroInput in, Column c) {
            throw new ConversionException(reason);
        }
    }
}
