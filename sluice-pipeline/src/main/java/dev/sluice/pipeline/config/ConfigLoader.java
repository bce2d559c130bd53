package dev.sluice.pipeline.config;

import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.AdminSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BackpressureSpec;
import dev.sluice.pipeline.spec.PipelineSpec.CheckpointSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ErrorsSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SourceSpec;
import dev.sluice.pipeline.spec.PipelineSpec.TransformSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Reads a pipeline's YAML into a {@link PipelineSpec}, every default applied (docs/configuration.md
 * is the reference). Strict: an unknown key, a value of the wrong type, an unset environment
 * variable are {@link ConfigException}s naming the file, line and key path.
 *
 * <pre>{@code
 * PipelineSpec spec = ConfigLoader.system().load(Path.of("pipeline.yaml"));
 * }</pre>
 */
public final class ConfigLoader {
    /** The top-level sections, in the order the reference lists them. */
    static final List<String> SECTIONS =
            List.of(
                    "pipeline",
                    "source",
                    "decode",
                    "transforms",
                    "sink",
                    "errors",
                    "backpressure",
                    "checkpoint",
                    "admin");

    static final List<String> TRANSFORM_KINDS =
            List.of("rename", "drop", "constant", "computed", "filter", "java");

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern LISTEN = Pattern.compile("(.+):([0-9]{1,5})");

    private final Function<String, String> env;
    private final int processors;

    /**
     * @param env environment variables for {@code ${VAR}} (null when unset)
     * @param processors what the default thread count is derived from
     */
    public ConfigLoader(Function<String, String> env, int processors) {
        this.env = env;
        this.processors = processors;
    }

    /** This process's environment and processor count. */
    public static ConfigLoader system() {
        return new ConfigLoader(System::getenv, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @throws IOException the file cannot be read
     * @throws ConfigException the content is wrong
     */
    public PipelineSpec load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * @param source the document's name in messages (its file name)
     * @throws ConfigException the content is wrong
     */
    public PipelineSpec parse(String yaml, String source) {
        ConfigNode.Context context = new ConfigNode.Context(source, env);
        Optional<Node> root;
        try {
            root = new Compose(LoadSettings.builder().setLabel(source).build()).composeString(yaml);
        } catch (MarkedYamlEngineException e) {
            String where =
                    e.getProblemMark()
                            .map(m -> source + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1))
                            .orElse(source);
            throw new ConfigException(where, "", "not valid YAML: " + e.getProblem());
        } catch (YamlEngineException e) {
            throw new ConfigException(source, "", "not valid YAML: " + e.getMessage());
        }
        if (root.isEmpty() || new ConfigNode("", root.get(), context).isNull()) {
            throw new ConfigException(source, "", "the configuration is empty");
        }
        ConfigMap top = new ConfigNode("", root.get(), context).map();
        top.allow(SECTIONS.toArray(String[]::new));

        ConfigMap pipeline = top.map("pipeline").allow("name", "threads");
        String name = pipeline.string("name", ConfigDefaults.PIPELINE_NAME).trim();
        if (!NAME.matcher(name).matches()) {
            throw pipeline.required("name")
                    .error(
                            "must be letters, digits, '.', '_' or '-' (it names the state"
                                    + " directory and the deduplication tokens), got '"
                                    + name
                                    + "'");
        }
        int threads =
                (int) pipeline.integer("threads", ConfigDefaults.threads(processors), 1, 1024);

        SourceSpec sourceSpec = SourceSection.source(top.required("source"), name);
        DecodeSpec decode = SourceSection.decode(top.get("decode"), sourceSpec, top);
        List<TransformSpec> transforms = transforms(top.get("transforms"));
        SinkSpec sink =
                SinkSection.sink(
                        top.required("sink"), sourceSpec instanceof PipelineSpec.KafkaSource);
        return new PipelineSpec(
                name,
                threads,
                sourceSpec,
                decode,
                transforms,
                sink,
                errors(top.map("errors"), name),
                backpressure(top.map("backpressure")),
                checkpoint(top.map("checkpoint"), name),
                admin(top.map("admin")));
    }

    private static List<TransformSpec> transforms(ConfigNode node) {
        List<TransformSpec> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        for (ConfigNode item : node.list()) {
            ConfigMap m = item.map();
            String kind = m.oneOf(TRANSFORM_KINDS.toArray(String[]::new));
            ConfigNode options = m.node(kind);
            if (options.isNull()) {
                out.add(new TransformSpec(kind, Map.of()));
            } else if (options.plain() instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) map;
                out.add(new TransformSpec(kind, typed));
            } else {
                throw options.error(
                        "expected the transform's options as a mapping, e.g. - "
                                + kind
                                + ": {key: value}");
            }
        }
        return out;
    }

    private static ErrorsSpec errors(ConfigMap m, String name) {
        m.allow("policy", "dead_letter", "max_errors");
        ErrorPolicy policy = ConfigDefaults.ERROR_POLICY;
        ConfigNode p = m.get("policy");
        if (p != null) {
            try {
                policy = ErrorPolicy.parse(p.text().trim());
            } catch (IllegalArgumentException e) {
                throw p.error(e.getMessage());
            }
        }
        ConfigMap deadLetter = m.map("dead_letter").allow("path");
        return new ErrorsSpec(
                policy,
                path(deadLetter, "path", ConfigDefaults.deadLetterPath(name)),
                m.integer("max_errors", ConfigDefaults.MAX_ERRORS, -1, Long.MAX_VALUE));
    }

    private static BackpressureSpec backpressure(ConfigMap m) {
        m.allow("max_inflight_bytes", "high", "low");
        ConfigNode budget = m.get("max_inflight_bytes");
        long bytes =
                budget == null || budget.text().trim().equalsIgnoreCase("auto")
                        ? ConfigDefaults.MAX_INFLIGHT_BYTES
                        : budget.size(1, Long.MAX_VALUE);
        double high = m.decimal("high", ConfigDefaults.HIGH_WATERMARK, 0.0, 1.0);
        double low = m.decimal("low", ConfigDefaults.LOW_WATERMARK, 0.0, 1.0);
        if (!(low > 0 && low < high)) {
            ConfigNode at = m.get("low") != null ? m.get("low") : m.required("high");
            throw at.error("needs 0 < low < high ≤ 1, got low " + low + " and high " + high);
        }
        return new BackpressureSpec(bytes, high, low);
    }

    private static CheckpointSpec checkpoint(ConfigMap m, String name) {
        m.allow("interval", "dir", "revoke_timeout");
        return new CheckpointSpec(
                m.duration("interval", ConfigDefaults.CHECKPOINT_INTERVAL, Duration.ofMillis(1)),
                path(m, "dir", ConfigDefaults.checkpointDir(name)),
                m.duration(
                        "revoke_timeout",
                        CheckpointSpec.DEFAULT_REVOKE_TIMEOUT,
                        Duration.ofMillis(1)));
    }

    private static AdminSpec admin(ConfigMap m) {
        m.allow("listen");
        ConfigNode n = m.get("listen");
        if (n == null) {
            return new AdminSpec(ConfigDefaults.ADMIN_LISTEN);
        }
        String listen = n.text().trim();
        if (Set.of("off", "none", "false").contains(listen.toLowerCase(Locale.ROOT))) {
            return new AdminSpec(null);
        }
        var hostPort = LISTEN.matcher(listen);
        if (!hostPort.matches() || Integer.parseInt(hostPort.group(2)) > 65535) {
            throw n.error("expected host:port (e.g. 127.0.0.1:9464) or off, got '" + listen + "'");
        }
        return new AdminSpec(listen);
    }

    private static Path path(ConfigMap m, String key, Path fallback) {
        ConfigNode n = m.get(key);
        if (n == null) {
            return fallback;
        }
        try {
            return Path.of(n.nonBlank().trim());
        } catch (InvalidPathException e) {
            throw n.error("not a valid path: " + e.getMessage());
        }
    }
}
