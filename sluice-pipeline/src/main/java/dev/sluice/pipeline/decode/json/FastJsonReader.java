package dev.sluice.pipeline.decode.json;

import dev.sluice.clickhouse.column.ArrayColumn;
import dev.sluice.clickhouse.column.Column;
import dev.sluice.clickhouse.column.MapColumn;
import dev.sluice.clickhouse.column.TupleColumn;
import dev.sluice.pipeline.decode.ColumnSlot;
import dev.sluice.pipeline.decode.RowTarget;
import dev.sluice.pipeline.decode.convert.ArrayConverter;
import dev.sluice.pipeline.decode.convert.Converter;
import dev.sluice.pipeline.decode.convert.MapConverter;
import dev.sluice.pipeline.decode.convert.TupleConverter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reads a record's values into the columns by scanning its bytes once: the fast path of {@link
 * JsonDecoder}, with {@link JacksonReader} as the reference and the fallback.
 *
 * <p>It accepts only what it is sure Jackson accepts with the same meaning — strict JSON, strictly
 * valid UTF-8 (escapes too: no lone surrogates), numbers of the JSON grammar, values every
 * converter takes — and declines everything else: it then rolls the row back and returns false, and
 * the record is read again by Jackson, whose rows and errors are the decoder's. So a damaged or
 * unusual record costs a second read, never a different result. Strings without escapes go to the
 * converters where they lie in the record (no copy); keys are matched by their bytes ({@link
 * NameTable}); runs of plain string bytes are skipped eight at a time. Nothing is allocated per
 * record (property 6).
 */
final class FastJsonReader {
    /** Deeper records go to Jackson (which has its own limit and message). */
    static final int MAX_DEPTH = 128;

    /** Levels a skipped value may nest (the bits of a long); deeper ones go to Jackson. */
    private static final int SKIP_DEPTH = 63;

    /** Longer numbers go to Jackson (which has its own limit and message). */
    private static final int MAX_NUMBER = 200;

    /** Records with longer keys go to Jackson (which limits a name to 50,000 characters). */
    private static final int MAX_NAME = 10_000;

    /**
     * Longer records go to Jackson: none of their strings can then reach its limit of 20 million
     * characters.
     */
    private static final int MAX_RECORD = 16 << 20;

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** The reader declines the record; thrown without a stack trace and caught in {@link #read}. */
    private static final class Decline extends RuntimeException {
        Decline() {
            super(null, null, false, false);
        }
    }

    private static final Decline DECLINE = new Decline();

    private final FieldTree tree;
    private final SeenColumns seen;

    private byte[] b;
    private int p;
    private int end;
    private int depth;
    private Column[] cols;

    /** Whether the last string scanned had an escape. */
    private boolean escaped;

    /** Columns that read a null they cannot hold: reported absent once the record is read. */
    private final int[] nulled;

    private int nulledCount;
    private byte[] scratch = new byte[256];

    FastJsonReader(FieldTree tree, SeenColumns seen, int targetSize) {
        this.tree = tree;
        this.seen = seen;
        this.nulled = new int[targetSize];
    }

    /** True when this reader can read the values of every column of {@code tree}. */
    static boolean handles(FieldTree tree) {
        for (ColumnSlot s : tree.fed) {
            if (!handles(s.converter)) {
                return false;
            }
        }
        return true;
    }

    private static boolean handles(Converter c) {
        if (c instanceof ArrayConverter a) {
            return handles(a.element());
        }
        if (c instanceof MapConverter m) {
            return handles(m.key()) && handles(m.value());
        }
        if (c instanceof TupleConverter t) {
            if (!t.names().isEmpty()) {
                return false; // a named tuple's keys are matched by name: Jackson's
            }
            for (int i = 0; i < t.size(); i++) {
                if (!handles(t.element(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Appends the values of the record in {@code d[start, end)} ({@code end} past its last
     * non-space byte) to the columns its keys feed, as {@link JacksonReader#read} does, and returns
     * true; or, when it declines the record, leaves the columns as they were at row {@code
     * row.row()} and returns false.
     */
    boolean read(byte[] d, int start, int end, Column[] cols, RowTarget row) {
        this.b = d;
        this.p = start;
        this.end = end;
        this.cols = cols;
        this.depth = 0;
        this.nulledCount = 0;
        if (end - start > MAX_RECORD) {
            return false;
        }
        int rowStart = row.row(); // before anything is appended (a target may count its rows)
        try {
            if (skipSpace() != '{') {
                throw DECLINE;
            }
            p++;
            object(tree.root);
            if (p != end) {
                throw DECLINE;
            }
        } catch (RuntimeException e) {
            // Declined, or a value a converter refused: Jackson reads the record again and says
            // why. (Anything else it would meet as well, and throw from there.)
            rollBack(rowStart);
            return false;
        }
        for (int i = 0; i < nulledCount; i++) {
            row.absent(nulled[i]);
        }
        return true;
    }

    private void rollBack(int rows) {
        for (ColumnSlot s : tree.fed) {
            Column c = cols[s.index];
            if (c.rows() > rows) {
                c.truncate(rows);
            }
        }
    }

    // ---- the tree of configured paths ----

    /** After the '{' of an object whose keys {@code node} maps. */
    private void object(PathNode node) {
        if (++depth > MAX_DEPTH) {
            throw DECLINE;
        }
        NameTable names = node.names;
        boolean root = node == tree.root;
        byte c = skipSpace();
        if (c == '}') {
            p++;
            depth--;
            return;
        }
        while (true) {
            int from = key(c);
            PathNode child;
            if (names == null) {
                child = null;
            } else if (escaped) {
                child = names.get(scratch, 0, unescape(from, p - 1));
            } else {
                child = names.get(b, from, p - 1 - from);
            }
            colon();
            if (child != null) {
                value(child);
            } else if (root && !tree.skipsUnknown()) {
                throw DECLINE; // Jackson names the key in its error
            } else {
                skipValue();
            }
            c = skipSpace();
            if (c == ',') {
                p++;
                c = skipSpace();
            } else if (c == '}') {
                p++;
                depth--;
                return;
            } else {
                throw DECLINE;
            }
        }
    }

    /** After the '[' of an array whose items {@code node} maps. */
    private void array(PathNode node) {
        if (++depth > MAX_DEPTH) {
            throw DECLINE;
        }
        PathNode[] items = node.items;
        byte c = skipSpace();
        if (c == ']') {
            p++;
            depth--;
            return;
        }
        for (int i = 0; ; i++) {
            PathNode child = i < items.length ? items[i] : null;
            if (child == null) {
                skipValue();
            } else {
                value(child);
            }
            c = skipSpace();
            if (c == ',') {
                p++;
                skipSpace();
            } else if (c == ']') {
                p++;
                depth--;
                return;
            } else {
                throw DECLINE;
            }
        }
    }

    /** The value at {@code p}, at place {@code node} of the tree. */
    private void value(PathNode node) {
        byte c = b[p];
        boolean struct = c == '{' || c == '[';
        ColumnSlot s = node.slot;
        if (s != null && !(struct && node.inner())) {
            column(s);
            return;
        }
        int from = struct && s != null ? p : -1;
        if (c == '{' && node.keys != null) {
            p++;
            object(node);
        } else if (c == '[' && node.items != null) {
            p++;
            array(node);
        } else {
            skipValue(); // the path does not go on here: its columns stay absent
        }
        if (from >= 0) {
            // A column reads this object as text while others read inside it.
            mark(s);
            s.converter.text(cols[s.index], b, from, p - from);
        }
    }

    private void column(ColumnSlot s) {
        mark(s);
        Column c = cols[s.index];
        if (b[p] == 'n') {
            literal(NULL);
            if (s.converter.nullable()) {
                s.converter.nul(c);
            } else {
                c.appendDefault();
                nulled[nulledCount++] = s.index;
            }
        } else {
            write(s.converter, c);
        }
    }

    private void mark(ColumnSlot s) {
        if (!seen.mark(s.index)) {
            throw DECLINE; // a duplicate key: Jackson's error
        }
    }

    // ---- values into columns ----

    /** Writes the value at {@code p} through {@code conv}, as {@code JacksonReader.write}. */
    private void write(Converter conv, Column c) {
        switch (b[p]) {
            case '"' -> {
                int from = ++p;
                scanString();
                if (escaped) {
                    int n = unescape(from, p - 1);
                    conv.text(c, scratch, 0, n);
                } else {
                    conv.text(c, b, from, p - 1 - from);
                }
            }
            case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> {
                int from = p;
                scanNumber();
                conv.number(c, b, from, p - from);
            }
            case 't' -> {
                literal(TRUE);
                conv.bool(c, true);
            }
            case 'f' -> {
                literal(FALSE);
                conv.bool(c, false);
            }
            case 'n' -> {
                literal(NULL);
                if (conv.nullable()) {
                    conv.nul(c);
                } else {
                    c.appendDefault(); // inside an array or map: the type's default
                }
            }
            case '[' -> writeArray(conv, c);
            case '{' -> writeObject(conv, c);
            default -> throw DECLINE;
        }
    }

    private void writeArray(Converter conv, Column c) {
        if (conv instanceof ArrayConverter a) {
            ArrayColumn ac = (ArrayColumn) c;
            try {
                enter();
                if (skipSpace() != ']') {
                    while (true) {
                        write(a.element(), ac.elements());
                        if (!more(']')) {
                            break;
                        }
                    }
                }
                p++;
                depth--;
            } catch (RuntimeException e) {
                ac.abortArray();
                throw e;
            }
            ac.endArray();
        } else if (conv instanceof TupleConverter tc) {
            TupleColumn col = (TupleColumn) c;
            try {
                enter();
                if (skipSpace() == ']') {
                    throw DECLINE; // too few elements: Jackson's error
                }
                for (int i = 0; i < tc.size(); i++) {
                    write(tc.element(i), col.element(i));
                    if (!more(']') != (i == tc.size() - 1)) {
                        throw DECLINE; // too few or too many elements: Jackson's error
                    }
                }
                p++;
                depth--;
            } catch (RuntimeException e) {
                col.truncate(col.rows());
                throw e;
            }
        } else if (conv.takesJsonText()) {
            int from = p;
            skipValue();
            conv.text(c, b, from, p - from);
        } else {
            throw DECLINE;
        }
    }

    private void writeObject(Converter conv, Column c) {
        if (conv instanceof MapConverter m) {
            MapColumn mc = (MapColumn) c;
            try {
                enter();
                if (skipSpace() != '}') {
                    while (true) {
                        int from = key(b[p]);
                        if (escaped) {
                            int n = unescape(from, p - 1);
                            m.key().text(mc.keys(), scratch, 0, n);
                        } else {
                            m.key().text(mc.keys(), b, from, p - 1 - from);
                        }
                        colon();
                        write(m.value(), mc.values());
                        if (!more('}')) {
                            break;
                        }
                        skipSpace();
                    }
                }
                p++;
                depth--;
            } catch (RuntimeException e) {
                mc.abortMap();
                throw e;
            }
            mc.endMap();
        } else if (conv.takesJsonText()) {
            int from = p;
            skipValue();
            conv.text(c, b, from, p - from);
        } else {
            throw DECLINE; // a named tuple never gets here (see handles)
        }
    }

    /** Past an opening bracket at {@code p}. */
    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw DECLINE;
        }
        p++;
    }

    /**
     * After a value inside a container: true past a ',' (at the next non-space byte), false at the
     * closing {@code close} (not consumed).
     */
    private boolean more(char close) {
        byte c = skipSpace();
        if (c == ',') {
            p++;
            skipSpace();
            return true;
        }
        if (c == close) {
            return false;
        }
        throw DECLINE;
    }

    /**
     * Past the key whose first byte {@code c} is at {@code p}; returns where its text starts (it
     * ends before the quote at {@code p - 1}).
     */
    private int key(byte c) {
        if (c != '"') {
            throw DECLINE;
        }
        int from = ++p;
        scanString();
        if (p - 1 - from > MAX_NAME) {
            throw DECLINE;
        }
        return from;
    }

    /** Past the ':' after a key, at the value. */
    private void colon() {
        if (skipSpace() != ':') {
            throw DECLINE;
        }
        p++;
        skipSpace();
    }

    // ---- scanning ----

    /** Skips the value at {@code p}, checking it as strictly as for a column. */
    private void skipValue() {
        byte c = b[p];
        if (c == '{' || c == '[') {
            skipContainer(c);
        } else {
            skipScalar(c);
        }
    }

    private void skipScalar(byte c) {
        switch (c) {
            case '"' -> {
                p++;
                scanString();
            }
            case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> scanNumber();
            case 't' -> literal(TRUE);
            case 'f' -> literal(FALSE);
            case 'n' -> literal(NULL);
            default -> throw DECLINE;
        }
    }

    /**
     * Skips the object or array opening with {@code c} at {@code p}: a loop over its tokens with
     * the open containers as a bit stack (1: object), not a call per level, since skipping what no
     * column reads is most of the work on wide records.
     */
    private void skipContainer(byte c) {
        long objects = 0;
        int level = 0;
        while (true) {
            // p is at a value starting with c
            if (c == '{' || c == '[') {
                if (++level > SKIP_DEPTH) {
                    throw DECLINE;
                }
                boolean object = c == '{';
                objects = objects << 1 | (object ? 1 : 0);
                p++;
                c = skipSpace();
                if (c != (object ? '}' : ']')) {
                    if (object) {
                        key(c);
                        colon();
                        c = b[p];
                    }
                    continue;
                }
                p++; // an empty one: closed at once
                level--;
                objects >>>= 1;
            } else {
                skipScalar(c);
            }
            // after a value: commas and closing brackets until the next value or the end
            while (true) {
                if (level == 0) {
                    return;
                }
                c = skipSpace();
                boolean object = (objects & 1) != 0;
                if (c == ',') {
                    p++;
                    c = skipSpace();
                    if (object) {
                        key(c);
                        colon();
                        c = b[p];
                    }
                    break;
                }
                if (c != (object ? '}' : ']')) {
                    throw DECLINE;
                }
                p++;
                level--;
                objects >>>= 1;
            }
        }
    }

    /** The byte at the first non-space position from {@code p} (which it moves there). */
    private byte skipSpace() {
        if (p < end) {
            byte c = b[p];
            if (c > ' ') {
                return c; // the usual case: no space between tokens
            }
        }
        while (true) {
            if (p >= end) {
                throw DECLINE; // the record ends inside a value
            }
            byte c = b[p];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return c;
            }
            p++;
        }
    }

    /**
     * From just after an opening quote to just past the closing one, checking escapes and UTF-8;
     * sets {@link #escaped}. Small, so that it is inlined where strings are scanned: most strings
     * are plain ASCII and end within a few words.
     */
    private void scanString() {
        int i = p;
        int e = end;
        while (i + 8 <= e) {
            long special = special((long) LONGS.get(b, i));
            if (special != 0) {
                i += Long.numberOfTrailingZeros(special) >>> 3;
                if (b[i] == '"') {
                    p = i + 1;
                    escaped = false;
                    return;
                }
                break;
            }
            i += 8;
        }
        scanStringRest(i);
    }

    /**
     * The high bit of each byte of {@code x} (eight string bytes) that is not plain printable ASCII
     * other than '"' and '\'; exact up to the first such byte (a borrow may flag later ones).
     */
    private static long special(long x) {
        long q = x ^ 0x2222222222222222L;
        long s = x ^ 0x5C5C5C5C5C5C5C5CL;
        return (((q - ONES) & ~q) | ((s - ONES) & ~s) | (x - 0x2020202020202020L) | x) & HIGHS;
    }

    /** {@link #scanString} from {@code i}, at or before the first byte that is not plain. */
    private void scanStringRest(int i) {
        boolean esc = false;
        int e = end;
        while (true) {
            while (i + 8 <= e) {
                long special = special((long) LONGS.get(b, i));
                if (special != 0) {
                    i += Long.numberOfTrailingZeros(special) >>> 3;
                    break;
                }
                i += 8;
            }
            if (i >= e) {
                throw DECLINE; // no closing quote
            }
            int c = b[i] & 0xFF;
            if (c == '"') {
                p = i + 1;
                escaped = esc;
                return;
            }
            if (c == '\\') {
                esc = true;
                i = escape(i + 1);
            } else if (c >= 0x80) {
                i = utf8(i, c);
            } else if (c < 0x20) {
                throw DECLINE; // a control character: Jackson's error
            } else {
                i++;
            }
        }
    }

    /** Checks the escape whose letter is at {@code i}; returns the position after it. */
    private int escape(int i) {
        if (i >= end) {
            throw DECLINE;
        }
        switch (b[i]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return i + 1;
            }
            case 'u' -> {
                int u = hex4(i + 1);
                if (u >= 0xD800 && u <= 0xDFFF) {
                    // Only a high surrogate followed by an escaped low one is a character.
                    if (u >= 0xDC00 || i + 11 > end || b[i + 5] != '\\' || b[i + 6] != 'u') {
                        throw DECLINE;
                    }
                    int low = hex4(i + 7);
                    if (low < 0xDC00 || low > 0xDFFF) {
                        throw DECLINE;
                    }
                    return i + 11;
                }
                return i + 5;
            }
            default -> throw DECLINE;
        }
    }

    private int hex4(int i) {
        if (i + 4 > end) {
            throw DECLINE;
        }
        int v = 0;
        for (int k = i; k < i + 4; k++) {
            int c = b[k];
            int d;
            if (c >= '0' && c <= '9') {
                d = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                d = c - 'a' + 10;
            } else if (c >= 'A' && c <= 'F') {
                d = c - 'A' + 10;
            } else {
                throw DECLINE;
            }
            v = v << 4 | d;
        }
        return v;
    }

    /**
     * Checks the multi-byte UTF-8 sequence starting with {@code c} at {@code i} strictly (no
     * overlong forms, no surrogates, nothing past U+10FFFF); returns the position after it.
     */
    private int utf8(int i, int c) {
        int n;
        int min;
        int lo = 0x80;
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            if (c == 0xE0) {
                lo = 0xA0; // overlong
            } else if (c == 0xED) {
                hi = 0x9F; // surrogates
            }
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            if (c == 0xF0) {
                lo = 0x90; // overlong
            } else if (c == 0xF4) {
                hi = 0x8F; // past U+10FFFF
            }
        } else {
            throw DECLINE;
        }
        if (i + n >= end) {
            throw DECLINE;
        }
        min = b[i + 1] & 0xFF;
        if (min < lo || min > hi) {
            throw DECLINE;
        }
        for (int k = 2; k <= n; k++) {
            int x = b[i + k] & 0xFF;
            if (x < 0x80 || x > 0xBF) {
                throw DECLINE;
            }
        }
        return i + n + 1;
    }

    /**
     * The unescaped UTF-8 of the string in {@code b[from, to)} (its escapes already checked) in
     * {@link #scratch}; returns its length.
     */
    private int unescape(int from, int to) {
        if (scratch.length < to - from) {
            scratch = new byte[Math.max(to - from, scratch.length * 2)];
        }
        byte[] out = scratch;
        int n = 0;
        int i = from;
        while (i < to) {
            byte c = b[i];
            if (c != '\\') {
                out[n++] = c;
                i++;
                continue;
            }
            byte e = b[i + 1];
            i += 2;
            switch (e) {
                case 'b' -> out[n++] = '\b';
                case 'f' -> out[n++] = '\f';
                case 'n' -> out[n++] = '\n';
                case 'r' -> out[n++] = '\r';
                case 't' -> out[n++] = '\t';
                case 'u' -> {
                    int cp = hex4(i);
                    i += 4;
                    if (cp >= 0xD800) {
                        if (cp <= 0xDBFF) {
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(i + 2) - 0xDC00);
                            i += 6;
                        }
                    }
                    // An escape is at least six bytes, its UTF-8 at most four: it fits.
                    if (cp < 0x80) {
                        out[n++] = (byte) cp;
                    } else if (cp < 0x800) {
                        out[n++] = (byte) (0xC0 | cp >> 6);
                        out[n++] = (byte) (0x80 | (cp & 0x3F));
                    } else if (cp < 0x10000) {
                        out[n++] = (byte) (0xE0 | cp >> 12);
                        out[n++] = (byte) (0x80 | (cp >> 6 & 0x3F));
                        out[n++] = (byte) (0x80 | (cp & 0x3F));
                    } else {
                        out[n++] = (byte) (0xF0 | cp >> 18);
                        out[n++] = (byte) (0x80 | (cp >> 12 & 0x3F));
                        out[n++] = (byte) (0x80 | (cp >> 6 & 0x3F));
                        out[n++] = (byte) (0x80 | (cp & 0x3F));
                    }
                }
                default -> out[n++] = e; // '"', '\\' and '/' stand for themselves
            }
        }
        return n;
    }

    /**
     * Past a number of the JSON grammar ({@code -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?}),
     * which must be followed by a space, ',', '}' or ']'.
     */
    private void scanNumber() {
        int from = p;
        int i = p;
        if (b[i] == '-') {
            i++;
        }
        if (i >= end) {
            throw DECLINE;
        }
        if (b[i] == '0') {
            i++;
        } else {
            i = digits(i);
        }
        if (i < end && b[i] == '.') {
            i = digits(i + 1);
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            i = digits(i);
        }
        if (i - from > MAX_NUMBER) {
            throw DECLINE;
        }
        if (i < end) {
            byte c = b[i];
            if (c != ',' && c != '}' && c != ']' && c != ' ' && c != '\n' && c != '\r'
                    && c != '\t') {
                throw DECLINE;
            }
        }
        p = i;
    }

    /** Past one or more digits from {@code i}. */
    private int digits(int i) {
        int from = i;
        // Eight at a time: a byte is a digit when it is '0' + 0..9.
        while (i + 8 <= end) {
            long t = (long) LONGS.get(b, i) ^ 0x3030303030303030L;
            long other = ((t + 0x7676767676767676L) | t) & HIGHS;
            if (other != 0) {
                i += Long.numberOfTrailingZeros(other) >>> 3;
                break;
            }
            i += 8;
        }
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        if (i == from) {
            throw DECLINE;
        }
        return i;
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    /** Past the literal {@code word} at {@code p}, which must end there like a number. */
    private void literal(byte[] word) {
        int i = p;
        if (i + word.length > end) {
            throw DECLINE;
        }
        for (byte w : word) {
            if (b[i++] != w) {
                throw DECLINE;
            }
        }
        if (i < end) {
            byte c = b[i];
            if (c != ',' && c != '}' && c != ']' && c != ' ' && c != '\n' && c != '\r'
                    && c != '\t') {
                throw DECLINE;
            }
        }
        p = i;
    }
}
