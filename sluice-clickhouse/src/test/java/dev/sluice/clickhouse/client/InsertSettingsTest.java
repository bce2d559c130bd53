package dev.sluice.clickhouse.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class InsertSettingsTest {
    private static ServerInfo server(int major, int minor) {
        return new ServerInfo("ClickHouse", major, minor, 1, 54460, 54460, "UTC", "");
    }

    @Test
    void asyncInsertIsTurnedOffFrom2111UnlessTheCallerSetIt() {
        Map<String, String> none = Map.of();
        Map<String, String> perInsert = Map.of("insert_deduplicate", "1");
        assertThat(InsertSettings.durable(server(21, 11), none, perInsert))
                .containsExactly(
                        Map.entry("insert_deduplicate", "1"), Map.entry("async_insert", "0"));
        assertThat(InsertSettings.durable(server(24, 3), none, none))
                .containsExactly(Map.entry("async_insert", "0"));
        assertThat(InsertSettings.durable(server(21, 10), none, perInsert)).isSameAs(perInsert);
        assertThat(InsertSettings.durable(server(18, 16), none, none)).isEmpty();
        assertThat(InsertSettings.durable(server(23, 8), none, Map.of("async_insert", "1")))
                .containsExactly(Map.entry("async_insert", "1"));
        assertThat(InsertSettings.durable(server(23, 8), Map.of("async_insert", "1"), none))
                .isEmpty();
    }
}
