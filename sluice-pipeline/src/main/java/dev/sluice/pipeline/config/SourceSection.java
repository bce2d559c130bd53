package dev.sluice.pipeline.config;

import dev.sluice.pipeline.source.file.InputFormats;
import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.AvroSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.FileSource;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.GeneratorSource;
import dev.sluice.pipeline.spec.PipelineSpec.KafkaSource;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.SourceSpec;
import dev.sluice.pipeline.spec.PipelineSpec.StdinSource;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code source} and {@code decode} sections: where records come from and their format. */
final class SourceSection {
    private static final long MAX_RECORD_LIMIT = 1L << 30;

    private SourceSection() {}

    static SourceSpec source(ConfigNode node, String pipeline) {
        ConfigMap section = node.map();
        String kind = section.oneOf("generator", "file", "stdin", "kafka");
        ConfigMap m = section.map(kind);
        return switch (kind) {
            case "generator" -> {
                m.allow("rows", "rows_per_second", "seed", "payload_arena");
                yield new GeneratorSource(
                        m.integer("rows", ConfigDefaults.GENERATOR_ROWS, 0, Long.MAX_VALUE),
                        m.integer(
                                "rows_per_second",
                                ConfigDefaults.GENERATOR_ROWS_PER_SECOND,
                                0,
                                Long.MAX_VALUE),
                        m.integer(
                                "seed",
                                ConfigDefaults.GENERATOR_SEED,
                                Long.MIN_VALUE,
                                Long.MAX_VALUE),
                        (int)
                                m.integer(
                                        "payload_arena",
                                        ConfigDefaults.GENERATOR_PAYLOAD_ARENA,
                                        1,
                                        1 << 20));
            }
            case "file" -> {
                m.allow("paths", "follow", "max_record_bytes", "poll_interval");
                List<String> paths = m.strings("paths");
                if (paths.isEmpty()) {
                    throw m.required("paths").error("needs at least one path");
                }
                if (paths.contains("-") && paths.size() > 1) {
                    throw m.required("paths").error("'-' (stdin) cannot be mixed with files");
                }
                yield new FileSource(
                        paths,
                        m.bool("follow", false),
                        maxRecordBytes(m),
                        m.duration(
                                "poll_interval",
                                ConfigDefaults.FILE_POLL_INTERVAL,
                                Duration.ofMillis(1)));
            }
            case "kafka" -> kafka(m, pipeline);
            default -> {
                m.allow("max_record_bytes");
                yield new StdinSource(maxRecordBytes(m));
            }
        };
    }

    private static KafkaSource kafka(ConfigMap m, String pipeline) {
        m.allow(
                "bootstrap_servers",
                "topics",
                "topic_pattern",
                "group_id",
                "start",
                "assignment_timeout",
                "group_protocol",
                "properties",
                "max_record_bytes");
        String servers = m.required("bootstrap_servers").text();
        List<String> topics = m.strings("topics");
        String pattern = m.string("topic_pattern", null);
        if (topics.isEmpty() == (pattern == null)) {
            throw m.error("give either topics or topic_pattern");
        }
        if (pattern != null) {
            try {
                java.util.regex.Pattern.compile(pattern);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw m.required("topic_pattern")
                        .error("not a regular expression: " + e.getDescription());
            }
        }
        String start = m.string("start", "earliest");
        if (!start.equals("earliest") && !start.equals("latest")) {
            throw m.required("start").error("expected earliest or latest");
        }
        String protocol = m.string("group_protocol", "consumer");
        if (!protocol.equals("consumer") && !protocol.equals("classic")) {
            throw m.required("group_protocol").error("expected consumer or classic");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        ConfigNode props = m.get("properties");
        if (props != null && !props.isNull()) {
            ConfigMap pm = props.map();
            for (String key : pm.keys()) {
                properties.put(key, pm.required(key).text());
            }
        }
        return new KafkaSource(
                servers,
                topics,
                pattern,
                m.string("group_id", "sluice-" + pipeline),
                start,
                m.duration(
                        "assignment_timeout",
                        KafkaSource.DEFAULT_ASSIGNMENT_TIMEOUT,
                        Duration.ofMillis(1)),
                protocol,
                properties,
                maxRecordBytes(m));
    }

    private static int maxRecordBytes(ConfigMap m) {
        return (int)
                m.size("max_record_bytes", ConfigDefaults.MAX_RECORD_BYTES, 1, MAX_RECORD_LIMIT);
    }

    /**
     * @param node the {@code decode} section, or null when absent: then the generator's own format,
     *     or the format the file names imply
     * @param at the document root, for messages about an absent section
     */
    static DecodeSpec decode(ConfigNode node, SourceSpec source, ConfigMap at) {
        String kind;
        ConfigMap options;
        if (node == null || node.isScalar()) {
            kind = node == null ? "auto" : node.text().trim();
            options = null;
        } else {
            ConfigMap section = node.map();
            kind = section.oneOf("auto", "json", "csv", "tsv", "avro", "raw", "generator");
            options = section.map(kind);
        }
        DecodeSpec spec =
                switch (kind) {
                    case "auto" -> {
                        if (options != null) {
                            options.allow();
                        }
                        yield auto(source, node, at);
                    }
                    case "json" -> json(options);
                    case "raw" -> {
                        if (options == null) {
                            throw node.error(
                                    "raw needs {column: NAME}: the column the record goes to");
                        }
                        options.allow("column");
                        yield new DecodeSpec(
                                Format.RAW,
                                List.of(options.required("column").nonBlank().trim()),
                                false,
                                Map.of(),
                                false,
                                ',');
                    }
                    case "csv" -> delimited(Format.CSV, options);
                    case "tsv" -> delimited(Format.TSV, options);
                    case "avro" -> {
                        if (options == null) {
                            throw node.error(
                                    "avro needs its options: decode: {avro: {registry: {url: ...}}}"
                                            + " or {avro: {framing: raw, schema_file: ...}}");
                        }
                        yield avro(options);
                    }
                    case "generator" -> {
                        if (options != null) {
                            options.allow();
                        }
                        yield plain(Format.GENERATOR);
                    }
                    default ->
                            throw node.error(
                                    "unknown format '"
                                            + kind
                                            + "' (expected auto, json, csv, tsv, avro or generator)");
                };
        if (spec.format() == Format.AVRO
                && (source instanceof FileSource
                        || source instanceof StdinSource
                        || source instanceof GeneratorSource)) {
            throw node.error(
                    "avro records need a source that delivers whole messages (kafka): files and"
                            + " stdin are read as lines");
        }
        boolean generator = source instanceof GeneratorSource;
        if (generator != (spec.format() == Format.GENERATOR)) {
            // Only a named format can disagree: an inferred one follows the source.
            throw node.error(
                    generator
                            ? "the generator source makes its own rows: leave decode out"
                            : "the generator format needs the generator source");
        }
        return spec;
    }

    private static DecodeSpec auto(SourceSpec source, ConfigNode node, ConfigMap at) {
        return switch (source) {
            case GeneratorSource g -> plain(Format.GENERATOR);
            case FileSource f -> {
                try {
                    yield plain(InputFormats.detect(f.paths()));
                } catch (IllegalArgumentException e) {
                    throw autoFailed(node, at, e.getMessage());
                }
            }
            case KafkaSource k ->
                    throw autoFailed(
                            node,
                            at,
                            "a Kafka record's format cannot be told from its topic: name it"
                                    + " (decode: json, csv, tsv)");
            case StdinSource s ->
                    throw autoFailed(
                            node,
                            at,
                            "stdin has no file name to tell the format from: name it (json, csv"
                                    + " or tsv)");
        };
    }

    /** An error about {@code decode}, pointing at the source when the section is left out. */
    private static ConfigException autoFailed(ConfigNode node, ConfigMap at, String problem) {
        if (node != null) {
            return node.error(problem);
        }
        ConfigNode source = at.required("source");
        return source.error("decode", source.mark(), problem);
    }

    private static DecodeSpec plain(Format format) {
        return new DecodeSpec(
                format, List.of(), false, Map.of(), false, format == Format.TSV ? '\t' : ',');
    }

    private static DecodeSpec json(ConfigMap m) {
        if (m == null) {
            return plain(Format.JSON);
        }
        m.allow("fields", "ignore_unknown", "fast_path");
        Map<String, String> fields = new LinkedHashMap<>();
        ConfigMap f = m.map("fields");
        for (String column : f.keys()) {
            fields.put(column, f.required(column).nonBlank());
        }
        return new DecodeSpec(
                        Format.JSON, List.of(), false, fields, m.bool("ignore_unknown", false), ',')
                .withJsonFastPath(m.bool("fast_path", true));
    }

    static DecodeSpec avro(ConfigMap m) {
        m.allow("framing", "schema_file", "registry", "ignore_unknown");
        ConfigNode schemaFile = m.get("schema_file");
        ConfigNode registryNode = m.get("registry");
        ConfigNode framingNode = m.get("framing");
        AvroFraming framing;
        if (framingNode != null) {
            framing =
                    switch (framingNode.text().trim()) {
                        case "confluent" -> AvroFraming.CONFLUENT;
                        case "raw" -> AvroFraming.RAW;
                        default ->
                                throw framingNode.error(
                                        "expected confluent or raw, got '"
                                                + framingNode.text().trim()
                                                + "'");
                    };
        } else if (schemaFile != null && registryNode != null) {
            throw schemaFile.error(
                    "give schema_file (raw records) or registry (Confluent-framed records), not"
                            + " both");
        } else {
            framing = schemaFile != null ? AvroFraming.RAW : AvroFraming.CONFLUENT;
        }
        Path file = null;
        RegistrySpec registry = null;
        if (framing == AvroFraming.RAW) {
            if (schemaFile == null) {
                throw m.error(
                        "raw Avro records carry no schema id: schema_file names their writer"
                                + " schema");
            }
            if (registryNode != null) {
                throw registryNode.error(
                        "raw Avro records carry no schema id to look up: leave registry out (or"
                                + " use framing: confluent)");
            }
            try {
                file = Path.of(schemaFile.nonBlank().trim());
            } catch (InvalidPathException e) {
                throw schemaFile.error("not a valid path: " + e.getMessage());
            }
        } else {
            if (schemaFile != null) {
                throw schemaFile.error(
                        "Confluent-framed records name their schema by id in the registry: leave"
                                + " schema_file out (or use framing: raw)");
            }
            if (registryNode == null) {
                throw m.error("Confluent-framed Avro needs registry: {url: ...}");
            }
            registry = registry(m.map("registry"));
        }
        return DecodeSpec.avro(
                new AvroSpec(framing, file, registry), m.bool("ignore_unknown", false));
    }

    private static RegistrySpec registry(ConfigMap m) {
        m.allow(
                "url",
                "username",
                "password_file",
                "password_env",
                "timeout",
                "give_up_after",
                "unknown_id_ttl",
                "subject");
        ConfigNode url = m.required("url");
        String text = url.nonBlank().trim();
        if (!text.startsWith("http://") && !text.startsWith("https://")) {
            throw url.error("expected an http:// or https:// URL, got '" + text + "'");
        }
        if (text.substring(text.indexOf("//") + 2).split("/", 2)[0].contains("@")) {
            throw url.error(
                    "give the user as username and the password in password_file or"
                            + " password_env, not in the URL");
        }
        String username = m.string("username", null);
        ConfigNode passwordFile = m.get("password_file");
        ConfigNode passwordEnv = m.get("password_env");
        if (passwordFile != null && passwordEnv != null) {
            throw passwordEnv.error("give password_file or password_env, not both");
        }
        if (username == null && (passwordFile != null || passwordEnv != null)) {
            throw (passwordFile != null ? passwordFile : passwordEnv)
                    .error("a password needs a username");
        }
        Path file = null;
        if (passwordFile != null) {
            try {
                file = Path.of(passwordFile.nonBlank().trim());
            } catch (InvalidPathException e) {
                throw passwordFile.error("not a valid path: " + e.getMessage());
            }
        }
        return new RegistrySpec(
                text,
                username == null ? null : username.trim(),
                file,
                passwordEnv == null ? null : passwordEnv.nonBlank().trim(),
                m.duration("timeout", ConfigDefaults.REGISTRY_TIMEOUT, Duration.ofMillis(1)),
                m.duration("give_up_after", ConfigDefaults.REGISTRY_GIVE_UP_AFTER, Duration.ZERO),
                m.duration("unknown_id_ttl", ConfigDefaults.REGISTRY_UNKNOWN_ID_TTL, Duration.ZERO),
                m.string("subject", null));
    }

    private static DecodeSpec delimited(Format format, ConfigMap m) {
        if (m == null) {
            return plain(format);
        }
        if (format == Format.CSV) {
            m.allow("header", "columns", "delimiter", "ignore_unknown");
        } else {
            m.allow("header", "columns", "ignore_unknown");
        }
        boolean header = m.bool("header", false);
        List<String> columns = m.strings("columns");
        if (header && !columns.isEmpty()) {
            throw m.required("columns")
                    .error(
                            "columns name the fields of headerless input; with header: true the"
                                    + " header names them");
        }
        char delimiter = format == Format.TSV ? '\t' : ',';
        ConfigNode d = m.get("delimiter");
        if (d != null) {
            String text = d.text();
            if (text.length() != 1
                    || text.charAt(0) > 0x7F
                    || "\"\r\n".indexOf(text.charAt(0)) >= 0) {
                throw d.error(
                        "must be one ASCII character other than a quote or a newline, got '"
                                + text
                                + "'");
            }
            delimiter = text.charAt(0);
        }
        return new DecodeSpec(
                format, columns, header, Map.of(), m.bool("ignore_unknown", false), delimiter);
    }
}
