package dev.sluice.pipeline.source.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HexFormat;

/**
 * What tells one file from another under the same path: its device and inode, and a fingerprint of
 * its first bytes (at most {@value #FINGERPRINT_BYTES}) with how many bytes it covers — enough to
 * see a file rotated, replaced or rewritten in place, so that a committed position is never applied
 * to another file's bytes. A file that grew (followed logs) keeps its identity: the fingerprint is
 * compared over the bytes it covered when it was taken.
 *
 * <p>Written as {@code key;covered:fingerprint}, e.g. {@code (dev=803,ino=1311);4096:9f2c...}.
 */
record FileIdentity(String key, long covered, String fingerprint) {
    static final int FINGERPRINT_BYTES = 4096;

    static FileIdentity of(Path path) throws IOException {
        return of(path, FINGERPRINT_BYTES);
    }

    private static FileIdentity of(Path path, long upTo) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
        Object fileKey = attrs.fileKey();
        if (!attrs.isRegularFile()) {
            // A pipe or device: reading its first bytes would consume them, and it cannot be
            // resumed anyway.
            return new FileIdentity(fileKey == null ? "" : fileKey.toString(), 0, "");
        }
        byte[] head = new byte[(int) Math.min(upTo, attrs.size())];
        int n = 0;
        try (InputStream in = Files.newInputStream(path)) {
            while (n < head.length) {
                int r = in.read(head, n, head.length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        }
        return new FileIdentity(fileKey == null ? "" : fileKey.toString(), n, fnv(head, n));
    }

    /** Parses {@link #toString()}; null when {@code text} is not one. */
    static FileIdentity parse(String text) {
        int semi = text.lastIndexOf(';');
        int colon = text.indexOf(':', semi + 1);
        if (semi < 0 || colon < 0) {
            return null;
        }
        try {
            return new FileIdentity(
                    text.substring(0, semi),
                    Long.parseLong(text.substring(semi + 1, colon)),
                    text.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Why the file at {@code path} is not the one this identity was taken of, or null when it is.
     */
    String differs(Path path) throws IOException {
        FileIdentity now = of(path, covered);
        if (!key.isEmpty() && !now.key.isEmpty() && !key.equals(now.key)) {
            return "it is another file (" + now.key + ", was " + key + ")";
        }
        if (fingerprint.isEmpty()) {
            return null; // a pipe: nothing more to compare
        }
        if (now.covered < covered) {
            return "it is shorter than the " + covered + " bytes first read of it";
        }
        if (!fingerprint.equals(now.fingerprint)) {
            return "its first " + covered + " bytes changed";
        }
        return null;
    }

    private static String fnv(byte[] b, int n) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < n; i++) {
            h ^= b[i] & 0xFF;
            h *= 0x100000001b3L;
        }
        return HexFormat.of().toHexDigits(h);
    }

    @Override
    public String toString() {
        return key + ";" + covered + ":" + fingerprint;
    }
}
