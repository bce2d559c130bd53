package dev.sluice.pipeline.decode.json;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The keys of one JSON object level by their UTF-8 bytes, so that the fast reader matches a name
 * where it lies in the record, without making a String: an open-addressing table, built once.
 */
final class NameTable {
    private final byte[][] names;
    private final int[] hashes;
    private final PathNode[] nodes;
    private final int mask;

    NameTable(Map<String, PathNode> entries) {
        // Sparse, so that a key no column reads (most keys of a wide record) meets an empty slot
        // at once.
        int capacity = 16;
        while (capacity < entries.size() * 4) {
            capacity <<= 1;
        }
        names = new byte[capacity][];
        hashes = new int[capacity];
        nodes = new PathNode[capacity];
        mask = capacity - 1;
        for (Map.Entry<String, PathNode> e : entries.entrySet()) {
            byte[] name = strictUtf8(e.getKey());
            if (name == null) {
                // An unpaired surrogate: only an escape can spell it, and the fast reader
                // leaves records with a lone surrogate to Jackson.
                continue;
            }
            int h = hash(name, 0, name.length);
            int i = h & mask;
            while (names[i] != null) {
                i = (i + 1) & mask;
            }
            names[i] = name;
            hashes[i] = h;
            nodes[i] = e.getValue();
        }
    }

    /** The node of the name in {@code b[off, off + len)}, or null. */
    PathNode get(byte[] b, int off, int len) {
        int h = hash(b, off, len);
        int i = h & mask;
        for (byte[] name = names[i]; name != null; name = names[i]) {
            if (hashes[i] == h && name.length == len && same(name, b, off)) {
                return nodes[i];
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    private static boolean same(byte[] name, byte[] b, int off) {
        for (int k = 0; k < name.length; k++) {
            if (name[k] != b[off + k]) {
                return false;
            }
        }
        return true;
    }

    /** From the length and three bytes: keys of one level differ there, and it costs no loop. */
    private static int hash(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        int h = len * 0x9E3779B1;
        h ^= b[off] * 31 + b[off + len - 1] * 961 + b[off + (len >> 1)] * 29791;
        return h ^ (h >>> 15);
    }

    /** The UTF-8 bytes of {@code s}, or null when it has an unpaired surrogate. */
    private static byte[] strictUtf8(String s) {
        try {
            ByteBuffer b =
                    StandardCharsets.UTF_8
                            .newEncoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .encode(CharBuffer.wrap(s));
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
