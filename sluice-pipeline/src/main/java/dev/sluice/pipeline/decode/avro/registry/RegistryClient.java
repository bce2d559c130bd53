package dev.sluice.pipeline.decode.avro.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * A client of the Confluent Schema Registry API (Confluent's own, or a compatible one such as
 * Apicurio's {@code /apis/ccompat/v7}): schemas by id, subjects and their versions. JDK HTTP and
 * Jackson; thread-safe.
 *
 * <ul>
 *   <li><b>Authentication</b>: HTTP basic with {@code username} and a password read once from
 *       {@code password_file} or {@code password_env}; the password is never logged or put in a
 *       message.
 *   <li><b>Transient failures</b> — no connection, a timeout, HTTP 408, 429 and 5xx — are retried
 *       with backoff (200 ms doubling to 5 s) until {@code give_up_after}; then, and at once for a
 *       refusal (401, 403) or an answer that is not the API's, {@link DecoderUnavailableException}:
 *       the registry, not the record, is at fault.
 *   <li><b>"Not found"</b> answers (404 with a registry error code) are {@link RegistryException}s.
 * </ul>
 */
public final class RegistryClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCEPT =
            "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json,"
                    + " application/json";
    private static final long FIRST_DELAY_NANOS = 200_000_000L;
    private static final long MAX_DELAY_NANOS = 5_000_000_000L;

    private final String base;
    private final String authorization; // null without credentials
    private final Duration timeout;
    private final long giveUpNanos;
    private final Clock clock;
    private final HttpClient http;

    /**
     * @param env environment variables, for {@code password_env}
     * @throws IllegalArgumentException a bad URL, or a password that cannot be read
     */
    public RegistryClient(RegistrySpec spec, Clock clock, Function<String, String> env) {
        this.base = baseUrl(spec.url());
        this.authorization = authorization(spec, env);
        this.timeout = spec.timeout();
        this.giveUpNanos = spec.giveUpAfter().toNanos();
        this.clock = clock;
        this.http =
                HttpClient.newBuilder()
                        .connectTimeout(spec.timeout())
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .build();
    }

    /** The API's base URL without credentials, for messages. */
    public String url() {
        return base;
    }

    private static String baseUrl(String url) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("registry url: not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme();
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException(
                    "registry url: expected http:// or https://, got " + url);
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    "registry url: give the user as username and the password in password_file"
                            + " or password_env, not in the URL");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("registry url: no host in " + url);
        }
        String s = uri.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    private static String authorization(RegistrySpec spec, Function<String, String> env) {
        if (spec.username() == null) {
            if (spec.passwordFile() != null || spec.passwordEnv() != null) {
                throw new IllegalArgumentException("registry: a password needs a username");
            }
            return null;
        }
        String password = "";
        if (spec.passwordFile() != null) {
            password = readPassword(spec.passwordFile());
        } else if (spec.passwordEnv() != null) {
            password = env.apply(spec.passwordEnv());
            if (password == null) {
                throw new IllegalArgumentException(
                        "registry password_env: the variable "
                                + spec.passwordEnv()
                                + " is not set");
            }
        }
        String pair = spec.username() + ":" + password;
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /** The file's first line (a trailing newline is not part of the password). */
    private static String readPassword(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int nl = text.indexOf('\n');
            String line = nl < 0 ? text : text.substring(0, nl);
            return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "registry password_file " + file + ": cannot read it: " + e.getMessage());
        }
    }

    /** {@code GET /schemas/ids/{id}}. */
    public RegisteredSchema schemaById(int id) throws RegistryException {
        JsonNode n = get("/schemas/ids/" + Integer.toUnsignedString(id));
        return schema(n, id);
    }

    /** {@code GET /subjects/{subject}/versions/{version}} ({@code latest} or a number). */
    public RegisteredSchema subjectVersion(String subject, String version)
            throws RegistryException {
        JsonNode n =
                get(
                        "/subjects/"
                                + URLEncoder.encode(subject, StandardCharsets.UTF_8)
                                        .replace("+", "%20")
                                + "/versions/"
                                + version);
        return schema(n, -1);
    }

    /** {@code GET /subjects}: every subject's name. */
    public List<String> subjects() throws RegistryException {
        JsonNode n = get("/subjects");
        List<String> out = new ArrayList<>();
        if (!n.isArray()) {
            throw notTheApi("GET /subjects", "an answer that is not a list");
        }
        n.forEach(s -> out.add(s.asText()));
        return out;
    }

    private RegisteredSchema schema(JsonNode n, int id) {
        JsonNode text = n.get("schema");
        if (text == null || !text.isTextual()) {
            throw notTheApi("a schema", "an answer without \"schema\"");
        }
        List<RegisteredSchema.Reference> refs = new ArrayList<>();
        JsonNode r = n.get("references");
        if (r != null && r.isArray()) {
            for (JsonNode ref : r) {
                refs.add(
                        new RegisteredSchema.Reference(
                                ref.path("name").asText(),
                                ref.path("subject").asText(),
                                ref.path("version").asInt(-1)));
            }
        }
        return new RegisteredSchema(
                n.has("id") ? n.get("id").asInt() : id,
                n.path("version").asInt(-1),
                n.path("schemaType").asText("AVRO"),
                text.asText(),
                refs);
    }

    private DecoderUnavailableException notTheApi(String what, String got) {
        return new DecoderUnavailableException(
                "schema registry "
                        + base
                        + ": asked for "
                        + what
                        + ", got "
                        + got
                        + " — is url the base of a Confluent-compatible API (Apicurio:"
                        + " .../apis/ccompat/v7)?");
    }

    /** GETs {@code path} under the base URL, retrying transient failures; the answer's JSON. */
    private JsonNode get(String path) throws RegistryException {
        URI uri = URI.create(base + path);
        HttpRequest.Builder b =
                HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", ACCEPT).GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpRequest request = b.build();
        long deadline = clock.nanoTime() + giveUpNanos;
        long delay = FIRST_DELAY_NANOS;
        int attempts = 0;
        String last;
        while (true) {
            attempts++;
            try {
                HttpResponse<byte[]> r =
                        http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                int status = r.statusCode();
                if (status == 200) {
                    try {
                        return JSON.readTree(r.body());
                    } catch (IOException e) {
                        throw notTheApi("GET " + path, "an answer that is not JSON");
                    }
                }
                JsonNode error = errorBody(r.body());
                int code = error == null ? 0 : error.path("error_code").asInt(0);
                String message = error == null ? "" : error.path("message").asText("");
                String answer =
                        "HTTP "
                                + status
                                + (code == 0 ? "" : " " + code)
                                + (message.isEmpty() ? "" : ": " + message);
                if (status == 404 && code != 0) {
                    throw new RegistryException(status, code, answer);
                }
                if (status == 401 || status == 403) {
                    throw new DecoderUnavailableException(
                            "schema registry "
                                    + base
                                    + " refused the request (GET "
                                    + path
                                    + ": "
                                    + answer
                                    + "): check registry.username and its password");
                }
                if (status != 408 && status != 429 && status < 500) {
                    if (status == 404) {
                        throw notTheApi("GET " + path, "HTTP 404 without a registry error code");
                    }
                    throw new DecoderUnavailableException(
                            "schema registry "
                                    + base
                                    + " answered GET "
                                    + path
                                    + " with "
                                    + answer);
                }
                last = answer;
            } catch (IOException e) {
                last =
                        e.getClass().getSimpleName()
                                + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DecoderUnavailableException(
                        "interrupted while asking the schema registry " + base, e);
            }
            long now = clock.nanoTime();
            if (now + delay > deadline) {
                throw new DecoderUnavailableException(
                        "schema registry "
                                + base
                                + " did not answer GET "
                                + path
                                + " in "
                                + attempts
                                + " attempt(s) over "
                                + Duration.ofNanos(giveUpNanos).toSeconds()
                                + " s (registry.give_up_after); last: "
                                + last);
            }
            try {
                clock.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DecoderUnavailableException(
                        "interrupted while waiting to ask the schema registry " + base + " again",
                        e);
            }
            delay = Math.min(delay * 2, MAX_DELAY_NANOS);
        }
    }

    private static JsonNode errorBody(byte[] body) {
        try {
            JsonNode n = JSON.readTree(body);
            return n != null && n.isObject() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "RegistryClient[" + base + (authorization == null ? "" : ", basic auth") + "]";
    }
}
