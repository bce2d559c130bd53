package dev.sluice.clickhouse.protocol;

import java.util.Objects;

/**
 * A query-level setting sent in the {@link QueryPacket}, with its value as text ({@code "8192"},
 * {@code "true"}, {@code "random"}, {@code "0.5"}). How it is encoded depends on the negotiated
 * revision; see {@link SettingsFormat}.
 */
public record QuerySetting(String name, String value) {

    public QuerySetting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        // An empty name is the end-of-list marker on the wire.
        if (name.isEmpty()) {
            throw new IllegalArgumentException("setting name must not be empty");
        }
    }
}
