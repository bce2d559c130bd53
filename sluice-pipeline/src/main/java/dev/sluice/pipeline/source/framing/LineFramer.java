package dev.sluice.pipeline.source.framing;

/** Records are lines. Stateless: a line ends at the first newline whatever came before. */
final class LineFramer implements Framer {

    @Override
    public int findEnd(byte[] buf, int from, int to) {
        return ByteScan.indexOf(buf, from, to, (byte) '\n');
    }

    @Override
    public int innerNewlines() {
        return 0;
    }

    @Override
    public boolean open() {
        return false;
    }

    @Override
    public void reset() {}
}
