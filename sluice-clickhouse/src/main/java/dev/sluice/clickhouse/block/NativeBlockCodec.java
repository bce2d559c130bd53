package dev.sluice.clickhouse.block;

import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnFactory;
import dev.sluice.clickhouse.io.WireException;
import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Native block format, revision-aware.
 *
 * <pre>
 * [revision &gt; 0: BlockInfo]  VarUInt 1, UInt8 is_overflows, VarUInt 2, Int32 bucket_num, VarUInt 0
 * VarUInt column count, VarUInt row count
 * per column: String name, String type,
 *             [revision &gt;= 54454: UInt8 has_custom_serialization = 0],
 *             [rows &gt; 0: serialization prefix, then the data of all rows]
 * </pre>
 *
 * HTTP's {@code FORMAT Native} is revision 0: no BlockInfo. TCP always carries it.
 */
public final class NativeBlockCodec {
    /** Revision from which each column carries the has-custom-serialization byte. */
    public static final int CUSTOM_SERIALIZATION_REVISION = 54454;

    private NativeBlockCodec() {}

    public static void write(Block block, WireOutput out, int revision) {
        int rows = block.rows();
        if (revision > 0) {
            writeBlockInfo(out);
        }
        out.writeVarUInt(block.columnCount());
        out.writeVarUInt(rows);
        for (int i = 0; i < block.columnCount(); i++) {
            Column c = block.column(i);
            out.writeString(c.name());
            out.writeString(block.typeName(i));
            if (revision >= CUSTOM_SERIALIZATION_REVISION) {
                out.writeByte(0);
            }
            if (rows > 0) {
                c.writePrefix(out);
                c.writeData(out);
            }
        }
    }

    /** The bytes of a block with no columns and no rows: the end-of-data marker. */
    public static void writeEmpty(WireOutput out, int revision) {
        if (revision > 0) {
            writeBlockInfo(out);
        }
        out.writeVarUInt(0);
        out.writeVarUInt(0);
    }

    private static void writeBlockInfo(WireOutput out) {
        out.writeVarUInt(1).writeByte(0); // field 1: is_overflows = false
        out.writeVarUInt(2).writeInt32(-1); // field 2: bucket_num = -1
        out.writeVarUInt(0); // end of fields
    }

    /** Block metadata the server sends: relevant only for two-level aggregation. */
    public record Info(boolean overflows, int bucketNum) {}

    /** A decoded block and its BlockInfo. */
    public record Decoded(Block block, Info info) {}

    public static Decoded read(WireInput in, int revision) {
        Info info = new Info(false, -1);
        if (revision > 0) {
            info = readBlockInfo(in);
        }
        int columns = in.readVarUIntAsInt("column count", 1_000_000);
        int rows = in.readVarUIntAsInt("row count", Integer.MAX_VALUE - 16);
        List<String> names = new ArrayList<>(columns);
        List<String> types = new ArrayList<>(columns);
        List<Column> cols = new ArrayList<>(columns);
        for (int i = 0; i < columns; i++) {
            String name = readHeaderString(in, "column name");
            String type = readHeaderString(in, "type of column " + name);
            if (revision >= CUSTOM_SERIALIZATION_REVISION && in.readUInt8() != 0) {
                throw new WireException(
                        "column "
                                + name
                                + " ("
                                + type
                                + ") uses a custom serialization"
                                + " (sparse), which this client does not read");
            }
            Column c = ColumnFactory.create(name, type);
            if (rows > 0) {
                c.readPrefix(in);
                c.readData(in, rows);
            }
            names.add(name);
            types.add(type);
            cols.add(c);
        }
        return new Decoded(new Block(cols, types), info);
    }

    /** Column names and type names are short; a corrupt length must not allocate a gigabyte. */
    static final int MAX_HEADER_STRING_BYTES = 1 << 20;

    private static String readHeaderString(WireInput in, String what) {
        int len = in.readVarUIntAsInt(what + " length", MAX_HEADER_STRING_BYTES);
        byte[] b = new byte[len];
        in.readFully(b, 0, len);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static Info readBlockInfo(WireInput in) {
        boolean overflows = false;
        int bucket = -1;
        while (true) {
            long field = in.readVarUInt();
            if (field == 0) {
                return new Info(overflows, bucket);
            }
            if (field == 1) {
                overflows = in.readBoolean();
            } else if (field == 2) {
                bucket = in.readInt32();
            } else if (field == 3) {
                // out_of_order_buckets (revision 54480+): Array(Int32)
                long n = in.readVarUInt();
                for (long i = 0; i < n; i++) {
                    in.readInt32();
                }
            } else {
                throw new WireException(
                        "unknown BlockInfo field " + field + " at byte " + in.offset());
            }
        }
    }
}
