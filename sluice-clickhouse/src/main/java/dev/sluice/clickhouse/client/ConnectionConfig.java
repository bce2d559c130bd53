package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.compress.CompressionMethod;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Where and how to connect, usually parsed from a URL:
 *
 * <pre>
 * clickhouse://user:password@host:9000/database?compression=lz4&amp;secure=true&amp;...
 * </pre>
 *
 * Parameters: {@code compression} (lz4 | zstd | none, default lz4), {@code zstd_level} (default 3),
 * {@code secure} (TLS, default port 9440), {@code ssl_root_cert} (PEM file of trusted
 * certificates), {@code trust_store} and {@code trust_store_password} (PKCS12/JKS), {@code
 * ssl_insecure} (trust any certificate — an explicit switch for tests), {@code connect_timeout}
 * (opening a connection: TCP connect, TLS and the handshake), {@code read_timeout} (one wait for
 * the server's bytes), {@code write_timeout} (one blocked write: the server taking no data) and
 * {@code operation_timeout} (each query or insert end to end; none by default), e.g. {@code 10s},
 * {@code 500ms}, {@code 0} for no limit, {@code password_env} (name of an environment variable
 * holding the password), {@code password_file} (a file whose first line is the password), {@code
 * client_name}. Any other parameter is a ClickHouse setting sent with every query. Without a
 * password in the URL, {@code CLICKHOUSE_PASSWORD} is used when set.
 *
 * <p>The password is never part of {@link #toString()} or of any message.
 */
public final class ConnectionConfig {
    public static final int DEFAULT_PORT = 9000;
    public static final int DEFAULT_SECURE_PORT = 9440;
    public static final int DEFAULT_HTTP_PORT = 8123;
    public static final int DEFAULT_HTTPS_PORT = 8443;

    /** How to reach the server. */
    public enum Transport {
        /** The native TCP protocol ({@code clickhouse://}). */
        NATIVE,
        /** The HTTP interface ({@code http://}, {@code https://}). */
        HTTP
    }

    private final Transport transport;
    private final String host;
    private final int port;
    private final String database;
    private final String user;
    private final Secret password;
    private final CompressionMethod compression;
    private final int zstdLevel;
    private final boolean secure;
    private final boolean sslInsecure;
    private final Path sslRootCert;
    private final Path trustStore;
    private final Secret trustStorePassword;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final Duration writeTimeout;
    private final Duration operationTimeout;
    private final String clientName;
    private final String httpContentEncoding;
    private final Map<String, String> settings;

    private ConnectionConfig(Builder b) {
        this.transport = b.transport;
        this.host = b.host;
        this.port = b.port > 0 ? b.port : defaultPort(b.transport, b.secure);
        this.database = b.database;
        this.user = b.user;
        this.password = b.password;
        this.compression = b.compression;
        this.zstdLevel = b.zstdLevel;
        this.secure = b.secure;
        this.sslInsecure = b.sslInsecure;
        this.sslRootCert = b.sslRootCert;
        this.trustStore = b.trustStore;
        this.trustStorePassword = b.trustStorePassword;
        this.connectTimeout = b.connectTimeout;
        this.readTimeout = b.readTimeout;
        this.writeTimeout = b.writeTimeout;
        this.operationTimeout = b.operationTimeout;
        this.clientName = b.clientName;
        this.httpContentEncoding = b.httpContentEncoding;
        this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(b.settings));
    }

    /** A password held out of sight of logs: {@code toString()} is a mask. */
    public static final class Secret {
        private final String value;

        private Secret(String value) {
            this.value = value;
        }

        public static Secret of(String value) {
            return new Secret(value == null ? "" : value);
        }

        public String reveal() {
            return value;
        }

        public boolean isEmpty() {
            return value.isEmpty();
        }

        @Override
        public String toString() {
            return value.isEmpty() ? "" : "******";
        }
    }

    public static ConnectionConfig parse(String url) {
        return parse(url, System::getenv);
    }

    /** Parses a URL; {@code env} resolves environment variables (injectable for tests). */
    public static ConnectionConfig parse(String url, Function<String, String> env) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(
                    "no ClickHouse URL given (expected clickhouse://, clickhouses://, http:// or"
                            + " https://)");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "invalid ClickHouse URL " + redact(url) + ": " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        Transport transport;
        boolean secure = false;
        switch (scheme) {
            case "clickhouse", "tcp" -> transport = Transport.NATIVE;
            case "clickhouses" -> {
                transport = Transport.NATIVE;
                secure = true;
            }
            case "http" -> transport = Transport.HTTP;
            case "https" -> {
                transport = Transport.HTTP;
                secure = true;
            }
            default ->
                    throw new IllegalArgumentException(
                            "invalid ClickHouse URL "
                                    + redact(url)
                                    + ": the scheme must be clickhouse:// (native protocol) or"
                                    + " http(s):// (HTTP interface)");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(
                    "invalid ClickHouse URL " + redact(url) + ": no host");
        }
        Builder b = builder().transport(transport).secure(secure).host(uri.getHost());
        if (uri.getPort() > 0) {
            b.port(uri.getPort());
        }
        String userInfo = uri.getRawUserInfo();
        boolean passwordGiven = false;
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            String u = colon < 0 ? userInfo : userInfo.substring(0, colon);
            if (!u.isEmpty()) {
                b.user(decode(u));
            }
            if (colon >= 0) {
                b.password(decode(userInfo.substring(colon + 1)));
                passwordGiven = true;
            }
        }
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            b.database(decode(path.substring(1)));
        }
        String query = uri.getRawQuery();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                passwordGiven |= applyParameter(b, key, value, env);
            }
        }
        if (!passwordGiven) {
            String fromEnv = env.apply("CLICKHOUSE_PASSWORD");
            if (fromEnv != null) {
                b.password(fromEnv);
            }
        }
        return b.build();
    }

    /** Applies one URL parameter; returns true when it supplied the password. */
    private static boolean applyParameter(
            Builder b, String key, String value, Function<String, String> env) {
        switch (key.toLowerCase(Locale.ROOT)) {
            case "compression" -> b.compression(CompressionMethod.parse(value));
            case "zstd_level" -> b.zstdLevel(parseInt(key, value));
            case "secure" -> b.secure(parseBoolean(key, value));
            case "ssl_insecure", "insecure" -> b.sslInsecure(parseBoolean(key, value));
            case "ssl_root_cert" -> b.sslRootCert(Path.of(value));
            case "trust_store" -> b.trustStore(Path.of(value));
            case "trust_store_password" -> b.trustStorePassword(value);
            case "connect_timeout" -> b.connectTimeout(parseDuration(key, value));
            case "read_timeout", "socket_timeout" -> b.readTimeout(parseDuration(key, value));
            case "write_timeout" -> b.writeTimeout(parseDuration(key, value));
            case "operation_timeout" -> b.operationTimeout(parseDuration(key, value));
            case "client_name" -> b.clientName(value);
            case "http_compression", "content_encoding" -> b.httpContentEncoding(value);
            case "database" -> b.database(value);
            case "user" -> b.user(value);
            case "password" -> {
                b.password(value);
                return true;
            }
            case "password_env" -> {
                String p = env.apply(value);
                if (p == null) {
                    throw new IllegalArgumentException(
                            "password_env names the environment variable "
                                    + value
                                    + ", which is not set");
                }
                b.password(p);
                return true;
            }
            case "password_file" -> {
                b.password(readPasswordFile(Path.of(value)));
                return true;
            }
            default -> b.setting(key, value);
        }
        return false;
    }

    private static String readPasswordFile(Path file) {
        try {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            int nl = content.indexOf('\n');
            String line = nl < 0 ? content : content.substring(0, nl);
            return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read password_file " + file + ": " + e.getMessage());
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static int parseInt(String key, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + value + "'");
        }
    }

    private static boolean parseBoolean(String key, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "", "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off" -> false;
            default ->
                    throw new IllegalArgumentException(
                            key + " must be true or false, got '" + value + "'");
        };
    }

    /** {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}; a bare number means seconds. */
    static Duration parseDuration(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2).trim()));
            }
            char unit = v.isEmpty() ? ' ' : v.charAt(v.length() - 1);
            String num = Character.isDigit(unit) ? v : v.substring(0, v.length() - 1).trim();
            double n = Double.parseDouble(num);
            double seconds =
                    switch (unit) {
                        case 's' -> n;
                        case 'm' -> n * 60;
                        case 'h' -> n * 3600;
                        default -> {
                            if (!Character.isDigit(unit)) {
                                throw new NumberFormatException();
                            }
                            yield n;
                        }
                    };
            if (seconds < 0) {
                throw new NumberFormatException();
            }
            return Duration.ofNanos((long) (seconds * 1e9));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    key + " must be a duration such as 500ms, 10s or 2m, got '" + value + "'");
        }
    }

    /** The URL with any password replaced by a mask, for messages. */
    public static String redact(String url) {
        String out = url.replaceAll("(?<=://)([^:/@?#]*):[^@/?#]*@", "$1:******@");
        return out.replaceAll("(?i)([?&](password|trust_store_password)=)[^&#]*", "$1******");
    }

    public static Builder builder() {
        return new Builder();
    }

    static int defaultPort(Transport transport, boolean secure) {
        if (transport == Transport.HTTP) {
            return secure ? DEFAULT_HTTPS_PORT : DEFAULT_HTTP_PORT;
        }
        return secure ? DEFAULT_SECURE_PORT : DEFAULT_PORT;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.transport = transport;
        b.host = host;
        b.port = port;
        b.database = database;
        b.user = user;
        b.password = password;
        b.compression = compression;
        b.zstdLevel = zstdLevel;
        b.secure = secure;
        b.sslInsecure = sslInsecure;
        b.sslRootCert = sslRootCert;
        b.trustStore = trustStore;
        b.trustStorePassword = trustStorePassword;
        b.connectTimeout = connectTimeout;
        b.readTimeout = readTimeout;
        b.writeTimeout = writeTimeout;
        b.operationTimeout = operationTimeout;
        b.clientName = clientName;
        b.httpContentEncoding = httpContentEncoding;
        b.settings.putAll(settings);
        return b;
    }

    public Transport transport() {
        return transport;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    public String user() {
        return user;
    }

    public Secret password() {
        return password;
    }

    public CompressionMethod compression() {
        return compression;
    }

    public int zstdLevel() {
        return zstdLevel;
    }

    public boolean secure() {
        return secure;
    }

    public boolean sslInsecure() {
        return sslInsecure;
    }

    public Path sslRootCert() {
        return sslRootCert;
    }

    public Path trustStore() {
        return trustStore;
    }

    public Secret trustStorePassword() {
        return trustStorePassword;
    }

    /**
     * Deadline for opening a connection: TCP connect, TLS handshake and the ClickHouse handshake.
     */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** Longest wait for bytes from the server (each read); zero for none. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /**
     * Longest a single write may stay blocked because the server takes no data; zero for none.
     * Enforced by closing the connection (Java's socket writes cannot time out by themselves).
     */
    public Duration writeTimeout() {
        return writeTimeout;
    }

    /**
     * Deadline of each operation from start to end: a query with all its result, an insert of a
     * block up to the server's acknowledgement (for the streaming {@link Insert}: its start, each
     * block sent and its finish, since the time between is the caller's). Zero (the default): none,
     * only the read and write timeouts bound the waits. Opening a connection is bounded by {@link
     * #connectTimeout()} instead.
     */
    public Duration operationTimeout() {
        return operationTimeout;
    }

    public String clientName() {
        return clientName;
    }

    /**
     * HTTP only: a {@code Content-Encoding} for request bodies (gzip, deflate, zstd, lz4, br) used
     * instead of ClickHouse frames, or null.
     */
    public String httpContentEncoding() {
        return httpContentEncoding;
    }

    /** Settings sent with every query. */
    public Map<String, String> settings() {
        return settings;
    }

    /** The address as {@code host:port}, for messages. */
    public String address() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        String scheme =
                transport == Transport.HTTP
                        ? (secure ? "https" : "http")
                        : (secure ? "clickhouses" : "clickhouse");
        return scheme
                + "://"
                + user
                + (password.isEmpty() ? "" : ":******")
                + "@"
                + address()
                + "/"
                + database
                + "?compression="
                + compression.name().toLowerCase(Locale.ROOT)
                + (httpContentEncoding == null ? "" : "&http_compression=" + httpContentEncoding);
    }

    /** Builds a configuration in code. */
    public static final class Builder {
        private Transport transport = Transport.NATIVE;
        private String host = "127.0.0.1";
        private int port;
        private String database = "default";
        private String user = "default";
        private Secret password = Secret.of("");
        private CompressionMethod compression = CompressionMethod.LZ4;
        private int zstdLevel = 3;
        private boolean secure;
        private boolean sslInsecure;
        private Path sslRootCert;
        private Path trustStore;
        private Secret trustStorePassword = Secret.of("");
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration readTimeout = Duration.ofSeconds(300);
        private Duration writeTimeout = Duration.ofSeconds(300);
        private Duration operationTimeout = Duration.ZERO;
        private String clientName = "Sluice";
        private String httpContentEncoding;
        private final Map<String, String> settings = new LinkedHashMap<>();

        public Builder transport(Transport transport) {
            this.transport = transport;
            return this;
        }

        public Builder httpContentEncoding(String encoding) {
            this.httpContentEncoding =
                    encoding == null || encoding.isBlank() || encoding.equalsIgnoreCase("none")
                            ? null
                            : encoding.toLowerCase(Locale.ROOT);
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 1..65535, got " + port);
            }
            this.port = port;
            return this;
        }

        public Builder database(String database) {
            this.database = database;
            return this;
        }

        public Builder user(String user) {
            this.user = user;
            return this;
        }

        public Builder password(String password) {
            this.password = Secret.of(password);
            return this;
        }

        public Builder compression(CompressionMethod compression) {
            this.compression = compression;
            return this;
        }

        public Builder zstdLevel(int level) {
            if (level < 1 || level > 22) {
                throw new IllegalArgumentException("zstd_level must be 1..22, got " + level);
            }
            this.zstdLevel = level;
            return this;
        }

        public Builder secure(boolean secure) {
            this.secure = secure;
            return this;
        }

        public Builder sslInsecure(boolean insecure) {
            this.sslInsecure = insecure;
            return this;
        }

        public Builder sslRootCert(Path pem) {
            this.sslRootCert = pem;
            return this;
        }

        public Builder trustStore(Path store) {
            this.trustStore = store;
            return this;
        }

        public Builder trustStorePassword(String password) {
            this.trustStorePassword = Secret.of(password);
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = requireTimeout("connect_timeout", timeout);
            return this;
        }

        public Builder readTimeout(Duration timeout) {
            this.readTimeout = requireTimeout("read_timeout", timeout);
            return this;
        }

        /** See {@link ConnectionConfig#writeTimeout()}; zero for none. */
        public Builder writeTimeout(Duration timeout) {
            this.writeTimeout = requireTimeout("write_timeout", timeout);
            return this;
        }

        /** See {@link ConnectionConfig#operationTimeout()}; zero for none. */
        public Builder operationTimeout(Duration timeout) {
            this.operationTimeout = requireTimeout("operation_timeout", timeout);
            return this;
        }

        private static Duration requireTimeout(String name, Duration timeout) {
            if (timeout == null || timeout.isNegative()) {
                throw new IllegalArgumentException(
                        name + " must be zero (no limit) or positive, got " + timeout);
            }
            return timeout;
        }

        public Builder clientName(String name) {
            this.clientName = name;
            return this;
        }

        public Builder setting(String name, String value) {
            this.settings.put(name, value);
            return this;
        }

        public ConnectionConfig build() {
            if (host == null || host.isEmpty()) {
                throw new IllegalArgumentException("host is required");
            }
            if (user == null || user.isEmpty()) {
                throw new IllegalArgumentException("user must not be empty");
            }
            return new ConnectionConfig(this);
        }
    }
}
