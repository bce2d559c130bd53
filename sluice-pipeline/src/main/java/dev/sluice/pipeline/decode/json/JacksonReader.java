package dev.sluice.pipeline.decode.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.ColumnValueException;
import dev.sluice.clickhouse.column.MapColumn;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ArrayConverter;
import dev.sluice.pipeline.decode.convert.ConversionException;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.MapConverter;
import dev.sluice.pipeline.decode.convert.TupleConverter;
import dev.sluice.pipeline.decode.convert.Utf8;
import java.io.IOException;

/**
 * Reads a record's values into the columns with Jackson's streaming parser; its errors are the
 * decoder's errors.
 *
 * <p>No object per record (property 6): one non-blocking parser is fed record after record (its
 * symbol table turns repeated keys into the same String, matched against a map built at start-up),
 * and values are converted from the parser's character buffer. The parser is replaced after an
 * error and every {@value #RECORDS_PER_PARSER} records, which bounds its symbol table when keys
 * vary.
 */
final class JacksonReader {
    static final int RECORDS_PER_PARSER = 1 << 14;
    private static final byte[] PRIMER = {' '};

    private static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                    .build();

    private final FieldTree tree;
    private final SeenColumns seen;

    private JsonParser parser;
    private ByteArrayFeeder feeder;
    private long fedBytes;
    private int recordsOnParser;

    private byte[] scratch = new byte[256];
    private byte[] recordData;
    private int recordStart;
    private long recordBase;
    private RowTarget row;

    JacksonReader(FieldTree tree, SeenColumns seen) {
        this.tree = tree;
        this.seen = seen;
    }

    /**
     * Appends the values of the record in {@code d[start, end)} ({@code end} past its last
     * non-space byte) to the columns its keys feed, marking them seen; a null for a column that
     * cannot hold NULL is reported absent.
     */
    void read(byte[] d, int start, int end, Column[] cols, RowTarget row) throws RecordException {
        this.row = row;
        ensureParser();
        recordData = d;
        recordStart = start;
        recordBase = fedBytes;
        try {
            feeder.feedInput(d, start, end);
            fedBytes += end - start;
            if (next() != JsonToken.START_OBJECT) {
                throw new RecordException(null, "a record must be a JSON object");
            }
            object(tree.root, cols);
            if (!feeder.needMoreInput()) {
                throw new RecordException(
                        null,
                        "invalid JSON at byte "
                                + offset()
                                + ": unexpected data after the end of the object");
            }
        } catch (JsonProcessingException e) {
            dropParser();
            String problem = e.getOriginalMessage();
            long at = e.getLocation() == null ? 0 : e.getLocation().getByteOffset() - recordBase;
            if (problem.startsWith("Invalid UTF-8")) {
                at--; // Jackson points just past the offending byte
            }
            throw new RecordException(
                    null, "invalid JSON at byte " + Math.max(at, 0) + ": " + problem);
        } catch (IOException e) {
            dropParser();
            throw new RecordException(null, "invalid JSON: " + e.getMessage());
        } catch (RecordException | RuntimeException e) {
            dropParser();
            throw e;
        }
    }

    private void ensureParser() {
        if (parser == null || recordsOnParser == RECORDS_PER_PARSER) {
            dropParser();
            try {
                parser = FACTORY.createNonBlockingByteArrayParser();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
            fedBytes = 0;
            recordsOnParser = 0;
            // A fresh parser treats leading 0xEF as a byte order mark, a used one as a character:
            // a space first makes every record read alike, whatever parser it lands on (the
            // reader strips a file's real BOM before framing).
            try {
                feeder.feedInput(PRIMER, 0, PRIMER.length);
                if (parser.nextToken() != JsonToken.NOT_AVAILABLE) {
                    throw new IllegalStateException("a parser primed with a space read a token");
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            fedBytes = PRIMER.length;
        }
        recordsOnParser++;
    }

    private void dropParser() {
        if (parser != null) {
            try {
                parser.close();
            } catch (IOException e) {
                // closing an in-memory parser only releases its buffers
            }
            parser = null;
        }
    }

    private JsonToken next() throws IOException, RecordException {
        JsonToken t = parser.nextToken();
        if (t == JsonToken.NOT_AVAILABLE) {
            throw new RecordException(
                    null, "invalid JSON at byte " + offset() + ": the record ends inside a value");
        }
        return t;
    }

    /** Bytes of the record read so far. */
    private long offset() {
        return parser.currentLocation().getByteOffset() - recordBase;
    }

    private void object(PathNode node, Column[] cols) throws IOException, RecordException {
        while (true) {
            JsonToken t = next();
            if (t == JsonToken.END_OBJECT) {
                return;
            }
            String name = parser.currentName();
            PathNode child = node.keys == null ? null : node.keys.get(name);
            JsonToken v = next();
            if (child == null) {
                if (node == tree.root) {
                    RecordException unknown = tree.unknown(name);
                    if (unknown != null) {
                        throw unknown;
                    }
                }
                skip(v);
            } else {
                value(child, v, cols);
            }
        }
    }

    private void array(PathNode node, Column[] cols) throws IOException, RecordException {
        for (int i = 0; ; i++) {
            JsonToken t = next();
            if (t == JsonToken.END_ARRAY) {
                return;
            }
            PathNode child = i < node.items.length ? node.items[i] : null;
            if (child == null) {
                skip(t);
            } else {
                value(child, t, cols);
            }
        }
    }

    private void value(PathNode node, JsonToken t, Column[] cols)
            throws IOException, RecordException {
        boolean struct = t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY;
        if (node.slot != null && !(struct && node.inner())) {
            column(node.slot, t, cols);
            return;
        }
        int from = struct && node.slot != null ? structStart() : -1;
        if (t == JsonToken.START_OBJECT && node.keys != null) {
            object(node, cols);
        } else if (t == JsonToken.START_ARRAY && node.items != null) {
            array(node, cols);
        } else {
            skip(t); // the path does not go on here: its columns stay absent
        }
        if (from >= 0) {
            // A column reads this object as text while others read inside it.
            ColumnSlot s = node.slot;
            markSeen(s);
            try {
                s.converter.text(cols[s.index], recordData, from, structEnd() - from);
            } catch (ConversionException | ColumnValueException e) {
                throw s.error(e);
            }
        }
    }

    private void column(ColumnSlot s, JsonToken t, Column[] cols)
            throws IOException, RecordException {
        markSeen(s);
        Column c = cols[s.index];
        try {
            if (t == JsonToken.VALUE_NULL) {
                s.nullOrAbsent(c, row);
            } else {
                write(s.converter, c, t);
            }
        } catch (ConversionException | ColumnValueException e) {
            throw s.error(e);
        }
    }

    private void markSeen(ColumnSlot s) throws RecordException {
        if (!seen.mark(s.index)) {
            throw RecordException.ofColumn(
                    s.name, s.typeName, "the record has its field twice (a duplicate key)");
        }
    }

    /** Writes the value starting with token {@code t} through {@code conv}. */
    private void write(Converter conv, Column c, JsonToken t) throws IOException, RecordException {
        switch (t) {
            case VALUE_STRING -> {
                int n = utf8();
                conv.text(c, scratch, 0, n);
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                int n = ascii();
                conv.number(c, scratch, 0, n);
            }
            case VALUE_TRUE -> conv.bool(c, true);
            case VALUE_FALSE -> conv.bool(c, false);
            case VALUE_NULL -> {
                if (conv.nullable()) {
                    conv.nul(c);
                } else {
                    c.appendDefault(); // inside an array or map: the type's default
                }
            }
            case START_ARRAY -> writeArray(conv, c);
            case START_OBJECT -> writeObject(conv, c);
            default -> throw new IllegalStateException("unexpected token " + t);
        }
    }

    private void writeArray(Converter conv, Column c) throws IOException, RecordException {
        if (conv instanceof ArrayConverter a) {
            ArrayColumn ac = (ArrayColumn) c;
            try {
                for (JsonToken t = next(); t != JsonToken.END_ARRAY; t = next()) {
                    write(a.element(), ac.elements(), t);
                }
            } catch (RuntimeException | RecordException | IOException e) {
                ac.abortArray();
                throw e;
            }
            ac.endArray();
        } else if (conv instanceof TupleConverter tc) {
            TupleColumn col = (TupleColumn) c;
            try {
                for (int i = 0; i < tc.size(); i++) {
                    JsonToken t = next();
                    if (t == JsonToken.END_ARRAY) {
                        throw new ConversionException(
                                "the array has " + i + " elements, the tuple " + tc.size());
                    }
                    write(tc.element(i), col.element(i), t);
                }
                if (next() != JsonToken.END_ARRAY) {
                    throw new ConversionException(
                            "the array has more elements than the tuple's " + tc.size());
                }
            } catch (RuntimeException | RecordException | IOException e) {
                col.truncate(col.rows());
                throw e;
            }
        } else if (conv.takesJsonText()) {
            int from = structStart();
            skip(JsonToken.START_ARRAY);
            conv.text(c, recordData, from, structEnd() - from);
        } else {
            throw new ConversionException("cannot store a JSON array in this type");
        }
    }

    private void writeObject(Converter conv, Column c) throws IOException, RecordException {
        if (conv instanceof MapConverter m) {
            MapColumn mc = (MapColumn) c;
            try {
                for (JsonToken t = next(); t != JsonToken.END_OBJECT; t = next()) {
                    int n = utf8(parser.currentName());
                    m.key().text(mc.keys(), scratch, 0, n);
                    write(m.value(), mc.values(), next());
                }
            } catch (RuntimeException | RecordException | IOException e) {
                mc.abortMap();
                throw e;
            }
            mc.endMap();
        } else if (conv instanceof TupleConverter tc && !tc.names().isEmpty()) {
            writeNamedTuple(tc, (TupleColumn) c);
        } else if (conv.takesJsonText()) {
            int from = structStart();
            skip(JsonToken.START_OBJECT);
            conv.text(c, recordData, from, structEnd() - from);
        } else {
            throw new ConversionException("cannot store a JSON object in this type");
        }
    }

    private void writeNamedTuple(TupleConverter tc, TupleColumn col)
            throws IOException, RecordException {
        int before = col.rows();
        try {
            for (JsonToken t = next(); t != JsonToken.END_OBJECT; t = next()) {
                String name = parser.currentName();
                int i = tc.names().indexOf(name);
                if (i < 0) {
                    throw new ConversionException("the tuple has no element " + name);
                }
                if (col.element(i).rows() > before) {
                    throw new ConversionException("element " + name + " is given twice");
                }
                write(tc.element(i), col.element(i), next());
            }
            for (int i = 0; i < tc.size(); i++) {
                if (col.element(i).rows() == before) {
                    col.element(i).appendDefault();
                }
            }
        } catch (RuntimeException | RecordException | IOException e) {
            col.truncate(before);
            throw e;
        }
    }

    /**
     * Skips the value that starts with {@code t} (the parser's own skip loops on NOT_AVAILABLE).
     */
    private void skip(JsonToken t) throws IOException, RecordException {
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return;
        }
        for (int depth = 1; depth > 0; ) {
            JsonToken n = next();
            if (n == JsonToken.START_OBJECT || n == JsonToken.START_ARRAY) {
                depth++;
            } else if (n == JsonToken.END_OBJECT || n == JsonToken.END_ARRAY) {
                depth--;
            }
        }
    }

    /** Where the object or array just opened starts in the record data. */
    private int structStart() {
        // The parser's current location is just past the opening bracket.
        int at = recordStart + (int) (offset() - 1);
        byte c = recordData[at];
        if (c != '{' && c != '[') {
            throw new IllegalStateException("expected a bracket at byte " + at);
        }
        return at;
    }

    /** Where the object or array just closed ends in the record data. */
    private int structEnd() {
        return recordStart + (int) offset();
    }

    /** The current string token's text as UTF-8 in the scratch buffer; returns its length. */
    private int utf8() throws IOException {
        char[] chars = parser.getTextCharacters();
        return utf8(chars, parser.getTextOffset(), parser.getTextLength());
    }

    private int utf8(String s) {
        if (scratch.length < s.length() * 3) {
            scratch = new byte[Math.max(s.length() * 3, scratch.length * 2)];
        }
        return Utf8.encode(s, scratch);
    }

    private int utf8(char[] chars, int off, int len) {
        if (scratch.length < len * 3) {
            scratch = new byte[Math.max(len * 3, scratch.length * 2)];
        }
        return Utf8.encode(chars, off, len, scratch);
    }

    /** The current number token's text (ASCII) in the scratch buffer. */
    private int ascii() throws IOException {
        char[] chars = parser.getTextCharacters();
        int off = parser.getTextOffset();
        int len = parser.getTextLength();
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        for (int i = 0; i < len; i++) {
            scratch[i] = (byte) chars[off + i];
        }
        return len;
    }
}
