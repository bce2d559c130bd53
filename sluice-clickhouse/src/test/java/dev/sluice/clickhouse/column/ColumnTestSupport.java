package dev.sluice.clickhouse.column;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Encoding, decoding and value comparison shared by the column and block tests. */
public final class ColumnTestSupport {

    private ColumnTestSupport() {}

    /** Prefix and data of {@code c}, as a block carries them. */
    public static byte[] encode(Column c) {
        WireOutput out = new WireOutput(64);
        c.writePrefix(out);
        c.writeData(out);
        return out.toByteArray();
    }

    /** Only the data part (what ch-go's {@code EncodeColumn} dumps). */
    public static byte[] encodeData(Column c) {
        WireOutput out = new WireOutput(64);
        c.writeData(out);
        return out.toByteArray();
    }

    public static byte[] encodePrefix(Column c) {
        WireOutput out = new WireOutput(16);
        c.writePrefix(out);
        return out.toByteArray();
    }

    /** Decodes prefix and {@code rows} rows into a fresh column and checks all input was used. */
    public static Column decode(String typeName, byte[] bytes, int rows) {
        return decode(typeName, WireInput.of(bytes), rows);
    }

    public static Column decode(String typeName, WireInput in, int rows) {
        Column c = ColumnFactory.create("c", typeName);
        c.readPrefix(in);
        c.readData(in, rows);
        assertThat(in.atEnd()).as("all input consumed").isTrue();
        return c;
    }

    /** A reader whose source hands out one byte per read call: exercises every refill path. */
    public static WireInput trickle(byte[] bytes) {
        InputStream slow =
                new ByteArrayInputStream(bytes) {
                    @Override
                    public synchronized int read(byte[] b, int off, int len) {
                        return super.read(b, off, Math.min(len, 1));
                    }
                };
        return new WireInput(slow, 64);
    }

    /** The rows of {@code c} as comparable values (byte arrays as hex, maps as entry lists). */
    public static List<Object> values(Column c) {
        List<Object> out = new ArrayList<>(c.rows());
        for (int r = 0; r < c.rows(); r++) {
            out.add(normalize(c.getObject(r)));
        }
        return out;
    }

    /** Makes a getObject value comparable with equals(). */
    public static Object normalize(Object v) {
        if (v instanceof byte[] b) {
            return "0x" + HexFormat.of().formatHex(b);
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object e : list) {
                out.add(normalize(e));
            }
            return out;
        }
        if (v instanceof Map<?, ?> map) {
            // Entry order is the wire order, and Map.equals would ignore it.
            List<Object> out = new ArrayList<>(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.add(Arrays.asList(normalize(e.getKey()), normalize(e.getValue())));
            }
            return out;
        }
        return v;
    }

    public static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replaceAll("\\s+", ""));
    }

    public static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }
}
