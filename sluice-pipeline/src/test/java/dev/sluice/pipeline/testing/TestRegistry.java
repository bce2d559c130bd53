package dev.sluice.pipeline.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real schema registry integration tests use: {@code SCHEMA_REGISTRY_URL} (and {@code
 * SCHEMA_REGISTRY_USER}, {@code SCHEMA_REGISTRY_PASSWORD_FILE}) from the environment, else the
 * private instance of {@code scripts/registry start} (its env file under {@code
 * .sluice/registry/env}).
 *
 * <p>When no registry answers, tests are skipped — except with {@code SLUICE_REQUIRE_REGISTRY=1}
 * (set by {@code scripts/test}), when they fail.
 */
public final class TestRegistry {
    private static final Map<String, String> ENV = loadEnv();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TestRegistry() {}

    private static Map<String, String> loadEnv() {
        Map<String, String> env = new HashMap<>();
        Path file = null;
        String dir = System.getenv("SLUICE_REGISTRY_DIR");
        if (dir != null && Files.isReadable(Path.of(dir, "env"))) {
            file = Path.of(dir, "env");
        }
        for (Path p = Path.of("").toAbsolutePath(); file == null && p != null; p = p.getParent()) {
            if (Files.isReadable(p.resolve(".sluice/registry/env"))) {
                file = p.resolve(".sluice/registry/env");
            }
        }
        if (file != null) {
            try {
                for (String line : Files.readAllLines(file)) {
                    int eq = line.indexOf('=');
                    if (eq > 0 && !line.startsWith("#")) {
                        env.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }
        System.getenv()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith("SCHEMA_REGISTRY_")) {
                                env.put(k, v); // the caller's environment wins
                            }
                        });
        return env;
    }

    /** The Confluent API's base URL, after making sure it answers (skip or fail otherwise). */
    public static String url() {
        String url = ENV.get("SCHEMA_REGISTRY_URL");
        String problem = null;
        if (url == null || url.isBlank()) {
            problem =
                    "SCHEMA_REGISTRY_URL is not set and no private registry was started"
                            + " (run scripts/registry start, or scripts/test)";
        } else {
            try {
                int status = get(url, "/subjects").statusCode();
                if (status != 200) {
                    problem = "the schema registry at " + url + " answers HTTP " + status;
                }
            } catch (IOException e) {
                problem = "no schema registry answers at " + url + ": " + e;
            }
        }
        if (problem != null) {
            if ("1".equals(System.getenv("SLUICE_REQUIRE_REGISTRY"))) {
                fail(problem);
            }
            assumeTrue(false, problem);
        }
        return url;
    }

    /** The basic-auth user, or null when the registry has no authentication. */
    public static String user() {
        String u = ENV.get("SCHEMA_REGISTRY_USER");
        return u == null || u.isBlank() ? null : u;
    }

    /** The file holding the user's password, or null. */
    public static Path passwordFile() {
        String f = ENV.get("SCHEMA_REGISTRY_PASSWORD_FILE");
        return f == null || f.isBlank() ? null : Path.of(f);
    }

    /** How the decoder reaches this registry, with its credentials. */
    public static RegistrySpec spec() {
        return spec(Duration.ofSeconds(10), Duration.ofMinutes(1));
    }

    public static RegistrySpec spec(Duration giveUpAfter, Duration unknownIdTtl) {
        return new RegistrySpec(
                url(),
                user(),
                user() == null ? null : passwordFile(),
                null,
                Duration.ofSeconds(5),
                giveUpAfter,
                unknownIdTtl,
                null);
    }

    /** Registers an Avro schema under {@code subject}; returns its id. */
    public static int register(String subject, String schema) {
        return register(subject, schema, "AVRO", List.of());
    }

    /**
     * Registers a schema of {@code type} (AVRO, JSON, PROTOBUF) that refers to {@code references}
     * (each {@code {name, subject, version}}); returns its id.
     */
    public static int register(
            String subject, String schema, String type, List<Map<String, Object>> references) {
        ObjectNode body = JSON.createObjectNode().put("schema", schema);
        if (!type.equals("AVRO")) {
            body.put("schemaType", type);
        }
        if (!references.isEmpty()) {
            ArrayNode refs = body.putArray("references");
            references.forEach(r -> refs.add(JSON.valueToTree(r)));
        }
        try {
            HttpRequest.Builder b =
                    HttpRequest.newBuilder(URI.create(url() + "/subjects/" + subject + "/versions"))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                            .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
            auth(b);
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException(
                        "registering " + subject + ": HTTP " + r.statusCode() + " " + r.body());
            }
            JsonNode id = JSON.readTree(r.body()).get("id");
            return id.asInt();
        } catch (IOException e) {
            throw new IllegalStateException("registering " + subject + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> get(String url, String path) throws IOException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(5));
        auth(b);
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void auth(HttpRequest.Builder b) throws IOException {
        if (user() != null && passwordFile() != null) {
            String password = Files.readAllLines(passwordFile(), StandardCharsets.UTF_8).get(0);
            String pair = user() + ":" + password;
            b.header(
                    "Authorization",
                    "Basic "
                            + Base64.getEncoder()
                                    .encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
