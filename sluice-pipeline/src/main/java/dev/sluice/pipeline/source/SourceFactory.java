package dev.sluice.pipeline.source;

import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.file.ChunkedFile;
import dev.sluice.pipeline.source.file.Compression;
import dev.sluice.pipeline.source.file.FileSource;
import dev.sluice.pipeline.source.file.FollowScan;
import dev.sluice.pipeline.source.file.InputFile;
import dev.sluice.pipeline.source.file.InputResolver;
import dev.sluice.pipeline.source.framing.Framer;
import dev.sluice.pipeline.source.framing.Splitter;
import dev.sluice.pipeline.source.generator.GeneratorSource;
import dev.sluice.pipeline.source.stdin.StdinSource;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.SourceSpec;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Builds the sources of a pipeline: one per pipeline thread ("reader"), each owning a disjoint
 * share of the partitions. Inputs are resolved once, here, so every reader sees the same list.
 *
 * <ul>
 *   <li>files: a plain (uncompressed) file of at least two {@link #SPLIT_BYTES} read once (not
 *       followed) is split into chunks at record boundaries, chunk {@code i} to reader {@code i},
 *       so that every reader decodes a share of it ({@link ChunkedFile}); the other files are dealt
 *       round-robin by index (file {@code k} to reader {@code k mod readers}); a reader with
 *       nothing is exhausted at once;
 *   <li>stdin: reader 0 reads it, the others are exhausted at once;
 *   <li>generator: reader {@code i} makes the rows with {@code row mod readers == i}.
 * </ul>
 */
public final class SourceFactory {
    /** How much a file or pipe source reads at a time: its read buffer. */
    public static final int CHUNK_BYTES = 1 << 20;

    /**
     * The smallest share of a file worth a reader of its own: below two of them a file is not
     * split. Large enough that the split's few reads and a chunk's start cost nothing next to its
     * decoding.
     */
    public static final long SPLIT_BYTES = 16L << 20;

    private SourceFactory() {}

    /**
     * The sources of {@code source} for {@code readers} pipeline threads, stdin being System.in.
     */
    public static List<Source> create(
            SourceSpec source,
            DecodeSpec decode,
            int readers,
            LocalCheckpoints checkpoints,
            Clock clock)
            throws IOException {
        return create(source, decode, readers, checkpoints, clock, System.in);
    }

    /**
     * @param decode how records become rows: tells the framing (CSV quotes) and whether files start
     *     with a header
     * @param checkpoints where partitions resume, and where commits go
     * @param stdin the stream a stdin source reads
     * @throws IllegalArgumentException the inputs name nothing, or the format does not fit
     */
    public static List<Source> create(
            SourceSpec source,
            DecodeSpec decode,
            int readers,
            LocalCheckpoints checkpoints,
            Clock clock,
            InputStream stdin)
            throws IOException {
        if (readers < 1) {
            throw new IllegalArgumentException("readers must be at least 1");
        }
        boolean generator = source instanceof PipelineSpec.GeneratorSource;
        if (generator != (decode.format() == Format.GENERATOR)) {
            throw new IllegalArgumentException(
                    generator
                            ? "the generator source makes its own rows: its format is generator"
                            : "the generator format needs the generator source");
        }
        return switch (source) {
            case PipelineSpec.GeneratorSource g -> {
                List<Source> sources = new ArrayList<>(readers);
                for (int i = 0; i < readers; i++) {
                    sources.add(
                            new GeneratorSource(
                                    g.rows(), g.rowsPerSecond(), i, readers, checkpoints, clock));
                }
                yield sources;
            }
            case PipelineSpec.FileSource f when f.paths().equals(List.of("-")) ->
                    stdin(stdin, decode, f.maxRecordBytes(), readers);
            case PipelineSpec.FileSource f ->
                    files(f, decode, readers, checkpoints, clock, SPLIT_BYTES);
            case PipelineSpec.StdinSource s -> stdin(stdin, decode, s.maxRecordBytes(), readers);
            case PipelineSpec.KafkaSource k ->
                    throw new IllegalArgumentException(
                            "the Kafka source is built by sluice-kafka (KafkaSources), not here");
        };
    }

    /**
     * The file sources of {@code spec}, splitting plain files of at least two {@code splitBytes}
     * (tests choose a small size to split small files).
     */
    public static List<Source> files(
            PipelineSpec.FileSource spec,
            DecodeSpec decode,
            int readers,
            LocalCheckpoints checkpoints,
            Clock clock,
            long splitBytes)
            throws IOException {
        if (readers < 1) {
            throw new IllegalArgumentException("readers must be at least 1");
        }
        lineFramed(decode);
        InputResolver resolver = new InputResolver(spec.paths());
        List<InputFile> all = resolver.resolve(spec.follow());
        Set<String> names = new HashSet<>();
        List<List<FileSource.Share>> shares = new ArrayList<>(readers);
        for (int i = 0; i < readers; i++) {
            shares.add(new ArrayList<>());
        }
        for (int k = 0; k < all.size(); k++) {
            InputFile file = all.get(k);
            names.add(file.name());
            if (readers > 1
                    && !spec.follow()
                    && file.compression() == Compression.NONE
                    && file.size() >= 2 * splitBytes) {
                ChunkedFile chunked =
                        new ChunkedFile(file, readers, splitter(decode), splitBytes, checkpoints);
                for (int i = 0; i < readers; i++) {
                    long share = file.size() / readers;
                    long size = i < readers - 1 ? share : file.size() - share * (readers - 1);
                    shares.get(i).add(new FileSource.Share(file, chunked, i, size));
                }
            } else {
                shares.get(k % readers).add(FileSource.Share.whole(file));
            }
        }
        FileSource.Reading reading =
                new FileSource.Reading(
                        framer(decode), header(decode), spec.maxRecordBytes(), CHUNK_BYTES);
        List<Source> sources = new ArrayList<>(readers);
        for (int i = 0; i < readers; i++) {
            FollowScan follow =
                    spec.follow()
                            ? new FollowScan(resolver, names, i, readers, spec.pollInterval())
                            : null;
            sources.add(new FileSource(reading, shares.get(i), follow, checkpoints, clock));
        }
        return sources;
    }

    private static List<Source> stdin(
            InputStream in, DecodeSpec decode, int maxRecordBytes, int readers) {
        lineFramed(decode);
        List<Source> sources = new ArrayList<>(readers);
        sources.add(new StdinSource(in, framer(decode).get(), maxRecordBytes, CHUNK_BYTES));
        for (int i = 1; i < readers; i++) {
            sources.add(new Exhausted("stdin"));
        }
        return sources;
    }

    /** Files and stdin are framed by lines (CSV: records): binary Avro cannot be. */
    private static void lineFramed(DecodeSpec decode) {
        if (decode.format() == Format.AVRO) {
            throw new IllegalArgumentException(
                    "avro records need a source that delivers whole messages (kafka): files and"
                            + " stdin are read as lines");
        }
    }

    private static Supplier<Framer> framer(DecodeSpec decode) {
        char delimiter = decode.delimiter();
        return decode.format() == Format.CSV ? () -> Framer.csv(delimiter) : Framer::lines;
    }

    private static Splitter splitter(DecodeSpec decode) {
        return decode.format() == Format.CSV ? Splitter.csv(decode.delimiter()) : Splitter.lines();
    }

    private static boolean header(DecodeSpec decode) {
        return decode.header() && (decode.format() == Format.CSV || decode.format() == Format.TSV);
    }

    /** A reader left without input: done at once. */
    private record Exhausted(String name) implements Source {
        @Override
        public int poll(PolledRecords into, int maxRecords, long maxWaitNanos) {
            into.clear();
            return -1;
        }

        @Override
        public void commit(Map<String, Checkpoint> checkpoints) {}

        @Override
        public void close() {}
    }
}
