package dev.sluice.cli;

import dev.sluice.clickhouse.client.ConnectionConfig;
import dev.sluice.pipeline.config.ConfigDefaults;
import dev.sluice.pipeline.config.Units;
import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.source.file.Compression;
import dev.sluice.pipeline.source.file.InputFormats;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BackpressureSpec;
import dev.sluice.pipeline.spec.PipelineSpec.CheckpointSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ErrorsSpec;
import dev.sluice.pipeline.spec.PipelineSpec.FileSource;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.PresortMode;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SourceSpec;
import dev.sluice.pipeline.spec.PipelineSpec.StdinSource;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice load}: files or stdin into a table, once. */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Load files (or stdin) into a ClickHouse table over the native protocol.",
            "Input fields map to columns by name (JSON keys, the CSV/TSV header, or --columns);"
                    + " columns absent from the input get the server's DEFAULT. Exits 0 only when"
                    + " every record is written or accounted for by --on-error.",
            "Progress is saved under .sluice/state/: after a failure, rerun with --resume."
        })
final class LoadCommand implements Callable<Integer> {
    private static final long MAX_RECORD_LIMIT = 1L << 30;

    @Parameters(
            arity = "1..*",
            paramLabel = "INPUT",
            description =
                    "Files, globs or directories (.gz and .zst are decompressed), or - for stdin")
    List<String> inputs;

    @Option(
            names = "--into",
            required = true,
            paramLabel = "[DB.]TABLE",
            description = "Target table")
    String table;

    @Option(names = "--url", description = "ClickHouse URL (default: $CLICKHOUSE_URL)")
    String url;

    @Option(
            names = "--format",
            defaultValue = "auto",
            description =
                    "ndjson, csv, tsv or auto (from the extension; default: ${DEFAULT-VALUE})")
    String format;

    @Option(
            names = "--columns",
            split = ",",
            paramLabel = "A,B,C",
            description = "Columns of headerless CSV/TSV fields, in order")
    List<String> columns = new ArrayList<>();

    @Option(
            names = "--field",
            paramLabel = "COLUMN=PATH",
            description =
                    "Where a column's value is: a JSON pointer (/user/id), a dotted path"
                            + " (user.id) or $ for the whole record; for CSV/TSV the header"
                            + " name (repeatable)")
    Map<String, String> fields = new LinkedHashMap<>();

    @Option(
            names = "--header",
            negatable = true,
            description = "CSV/TSV files start with a header line (default: yes, unless --columns)")
    Boolean header;

    @Option(names = "--delimiter", defaultValue = ",", description = "CSV field delimiter")
    char delimiter;

    @Option(
            names = "--compression",
            defaultValue = "lz4",
            description = "lz4, zstd[:LEVEL] or none")
    String compression;

    @Option(
            names = "--batch-rows",
            description =
                    "Rows per INSERT at most (default: 1048576 for files, as clickhouse-client;"
                            + " 500000 for stdin)")
    Integer batchRows;

    @Option(
            names = "--batch-bytes",
            description =
                    "Bytes per INSERT at most, e.g. 64MiB (default: 256MiB for files, less on a"
                            + " small heap; 64MiB for stdin)")
    String batchBytes;

    @Option(
            names = "--linger",
            description =
                    "Seal a batch after this long, or none (default: none for files, 1s for"
                            + " stdin)")
    String linger;

    @Option(names = "--shards", defaultValue = "1", description = "Parallel writers (connections)")
    int shards;

    @Option(
            names = "--threads",
            description =
                    "Pipeline threads (default: one per input — a large plain file counts as"
                            + " many, being split — ≤ cores/2)")
    Integer threads;

    @Option(
            names = "--on-error",
            defaultValue = "fail",
            description = "fail, skip or dead-letter (default: ${DEFAULT-VALUE})")
    String onError;

    @Option(names = "--dead-letter", paramLabel = "FILE", description = "Dead-letter NDJSON file")
    Path deadLetter;

    @Option(
            names = "--max-errors",
            defaultValue = "-1",
            description = "Stop after this many rejected records (-1: no limit)")
    long maxErrors;

    @Option(
            names = "--max-record-bytes",
            defaultValue = "8MiB",
            paramLabel = "SIZE",
            description =
                    "A longer record is rejected (by --on-error) instead of read (default:"
                            + " ${DEFAULT-VALUE})")
    String maxRecordBytes;

    @Option(names = "--ignore-unknown", description = "Skip input fields that name no column")
    boolean ignoreUnknown;

    @Option(
            names = "--no-json-fast-path",
            description =
                    "Read JSON with Jackson alone, not the byte scanner first (the same rows and"
                            + " errors, slower; see docs/formats.md)")
    boolean noJsonFastPath;

    @Option(
            names = "--presort",
            arity = "0..1",
            fallbackValue = "on",
            paramLabel = "off|on|auto",
            converter = PresortModeConverter.class,
            preprocessor = AttachedValueOnly.class,
            description =
                    "Sort batches by the table's ORDER BY key: on (bare --presort), off (default),"
                            + " or auto: a batch when its writer has more batches waiting (the"
                            + " server is the slower side); see docs/presort.md")
    PresortMode presort = PresortMode.OFF;

    /** Reads {@code --presort}'s value. */
    static final class PresortModeConverter implements CommandLine.ITypeConverter<PresortMode> {
        @Override
        public PresortMode convert(String value) {
            return PresortMode.parse(value);
        }
    }

    /**
     * {@code --presort}'s value only counts attached ({@code --presort=auto}): a bare {@code
     * --presort} is on, and the word after it stays what it was before the option took values (an
     * input path, as in {@code sluice load --presort events.ndjson}).
     */
    static final class AttachedValueOnly implements CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(
                java.util.Stack<String> args,
                CommandLine.Model.CommandSpec command,
                CommandLine.Model.ArgSpec arg,
                Map<String, Object> info) {
            if (" ".equals(info.get("separator"))) {
                arg.setValue(PresortMode.ON);
                return true; // consumed: picocli takes no value for it
            }
            return false;
        }
    }

    @Option(
            names = "--split-partitions",
            description = "Split each batch by the table's PARTITION BY key: one INSERT per part")
    boolean splitPartitions;

    @Option(names = "--resume", description = "Continue a previous load of the same inputs")
    boolean resume;

    @Option(
            names = "--on-unknown-outcome",
            paramLabel = "resend|fail",
            description =
                    "An INSERT interrupted after its data was sent is looked up on the server;"
                            + " when the server cannot tell whether it wrote it: resend (may write"
                            + " its rows twice, counted) or fail (stop, naming it). Default: resend"
                            + " where the table deduplicates, else fail")
    String onUnknownOutcome;

    @Option(
            names = "--outcome-timeout",
            defaultValue = "5m",
            paramLabel = "DURATION",
            description =
                    "How long an interrupted INSERT is looked up (while it still runs on the"
                            + " server, or the server does not answer) before its outcome counts as"
                            + " unknown (default: ${DEFAULT-VALUE})")
    String outcomeTimeout;

    @Option(names = "--check", description = "Validate against the server; move no data")
    boolean check;

    @Option(
            names = "--set",
            paramLabel = "SETTING=VALUE",
            description = "A ClickHouse setting for every INSERT (repeatable)")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--admin", description = "Serve /metrics on HOST:PORT (default: off)")
    String admin;

    @Override
    public Integer call() throws Exception {
        PipelineSpec spec = spec();
        SpecFactories factories = new SpecFactories(spec, Clock.SYSTEM, System.in);
        if (check) {
            return new Checker(System.out).check(spec, factories, true);
        }
        if (!resume) {
            deleteRecursively(spec.checkpoint().dir()); // a fresh load starts at the beginning
        }
        boolean fromStdin = spec.source() instanceof PipelineSpec.StdinSource;
        return new PipelineRunner(System.out, System.err)
                .resumeHint(
                        " (rerun with --resume to continue from the committed position; add"
                                + " --on-error skip or dead-letter to pass bad records)")
                .bounded(
                        fromStdin
                                ? "standard input cannot be read again: load the rest from a file"
                                : "rerun the same command with --resume to load the rest")
                .run(spec, factories, 0);
    }

    PipelineSpec spec() {
        String target = Urls.resolve(url);
        ConnectionConfig.parse(target); // a malformed URL is a usage error (exit 2), as for ping
        boolean stdin = inputs.size() == 1 && inputs.get(0).equals("-");
        Format fmt = format(stdin);
        int maxRecord = maxRecordBytes();
        SourceSpec source =
                stdin ? new StdinSource(maxRecord) : new FileSource(inputs, false, maxRecord);
        boolean hasHeader =
                header != null
                        ? header
                        : (fmt == Format.CSV || fmt == Format.TSV) && columns.isEmpty();
        DecodeSpec decode =
                new DecodeSpec(fmt, columns, hasHeader, fields, ignoreUnknown, delimiter)
                        .withJsonFastPath(!noJsonFastPath);
        List<ShardSpec> shardSpecs = new ArrayList<>();
        for (int i = 0; i < Math.max(1, shards); i++) {
            shardSpecs.add(new ShardSpec(List.of(target), 1));
        }
        SinkSpec sink =
                SinkSpec.builder(shardSpecs, table)
                        .batch(
                                LoadBatching.batch(
                                        stdin,
                                        batchRows,
                                        batchBytes == null ? null : Units.parseSize(batchBytes),
                                        linger == null ? null : LoadBatching.parseLinger(linger),
                                        readers(stdin)
                                                + shardSpecs.size()
                                                        * ConfigDefaults.INFLIGHT_PER_SHARD,
                                        Runtime.getRuntime().maxMemory()))
                        .inflightPerShard(ConfigDefaults.INFLIGHT_PER_SHARD)
                        .compression(compression)
                        .presort(presort)
                        .partitionSplit(splitPartitions)
                        .settings(settings)
                        .retry(ConfigDefaults.RETRY)
                        .onUnknownOutcome(
                                onUnknownOutcome == null
                                        ? null
                                        : parseOnUnknownOutcome(onUnknownOutcome))
                        .outcomeTimeout(Units.parseDuration(outcomeTimeout))
                        .build();
        ErrorPolicy policy = ErrorPolicy.parse(onError);
        String name = "load-" + digest(table, inputs);
        Path dead = deadLetter != null ? deadLetter : ConfigDefaults.deadLetterPath(name);
        return new PipelineSpec(
                name,
                readers(stdin),
                source,
                decode,
                List.of(),
                sink,
                new ErrorsSpec(policy, dead, maxErrors),
                new BackpressureSpec(
                        ConfigDefaults.MAX_INFLIGHT_BYTES,
                        ConfigDefaults.HIGH_WATERMARK,
                        ConfigDefaults.LOW_WATERMARK),
                new CheckpointSpec(
                        ConfigDefaults.CHECKPOINT_INTERVAL, ConfigDefaults.checkpointDir(name)),
                new PipelineSpec.AdminSpec(admin));
    }

    /** Pipeline threads: as asked, else one per input file up to the default, one for stdin. */
    private int readers(boolean stdin) {
        if (threads != null) {
            return threads;
        }
        if (stdin) {
            return 1;
        }
        int processors = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(inputCount(), ConfigDefaults.threads(processors)));
    }

    private static OnUnknownOutcome parseOnUnknownOutcome(String s) {
        try {
            return OnUnknownOutcome.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--on-unknown-outcome: " + e.getMessage());
        }
    }

    /** The same range the configuration's {@code max_record_bytes} allows. */
    private int maxRecordBytes() {
        long n = Units.parseSize(maxRecordBytes);
        if (n < 1 || n > MAX_RECORD_LIMIT) {
            throw new IllegalArgumentException(
                    "--max-record-bytes " + maxRecordBytes + ": expected 1 B to 1 GiB");
        }
        return (int) n;
    }

    private Format format(boolean stdin) {
        return switch (format.toLowerCase(Locale.ROOT)) {
            case "ndjson", "json", "jsonl", "jsoneachrow" -> Format.JSON;
            case "csv" -> Format.CSV;
            case "tsv", "tabseparated" -> Format.TSV;
            case "auto" -> {
                if (stdin) {
                    throw new IllegalArgumentException("--format is required with stdin (-)");
                }
                yield InputFormats.detect(inputs);
            }
            default ->
                    throw new IllegalArgumentException(
                            "--format " + format + ": expected ndjson, csv, tsv or auto");
        };
    }

    /**
     * Plain files count one each — one the file source splits into chunks (docs/pipeline.md,
     * "Splitting a file") as many as there may be threads; a glob or directory may hold many.
     */
    private int inputCount() {
        int n = 0;
        for (String in : inputs) {
            Path p = Path.of(in);
            n += !Files.isRegularFile(p) ? 2 : splits(p) ? 1 << 16 : 1;
        }
        return n;
    }

    private static boolean splits(Path file) {
        try {
            return Compression.of(file.getFileName().toString()) == Compression.NONE
                    && Files.size(file) >= 2 * SourceFactory.SPLIT_BYTES;
        } catch (IOException e) {
            return false; // reading it reports why
        }
    }

    /** The state directory name: stable for the same table and inputs, so --resume finds it. */
    private static String digest(String table, List<String> inputs) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(table.getBytes(StandardCharsets.UTF_8));
            for (String in : inputs) {
                md.update((byte) 0);
                md.update(
                        Path.of(in)
                                .toAbsolutePath()
                                .normalize()
                                .toString()
                                .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest(), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
