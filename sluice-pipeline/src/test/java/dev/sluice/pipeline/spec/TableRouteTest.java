package dev.sluice.pipeline.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableRouteTest {

    @Test
    void oneTableTakesEveryRecord() {
        TableRoute r = TableRoute.of("db.events", Map.of());
        assertThat(r.single()).isTrue();
        assertThat(r.byTopic()).isFalse();
        assertThat(r.fixed()).isEqualTo("db.events");
        assertThat(r.table(null)).isEqualTo("db.events");
        assertThat(r.table("anything")).isEqualTo("db.events");
        assertThat(r.knownTables()).containsExactly("db.events");
    }

    @Test
    void aTemplateNamesTheTableByTopicQuotingWhatIsNoIdentifier() {
        TableRoute r = TableRoute.of("db.events_{topic}", Map.of());
        assertThat(r.single()).isFalse();
        assertThat(r.template()).isTrue();
        assertThat(r.fixed()).isNull();
        assertThat(r.knownTables()).isEmpty();
        assertThat(r.table("clicks")).isEqualTo("db.events_clicks");
        assertThat(r.table("web.clicks-v2")).isEqualTo("db.`events_web.clicks-v2`");
        assertThat(r.table("a`b")).isEqualTo("db.`events_a\\`b`");
        assertThat(TableRoute.of("{topic}", Map.of()).table("x.y")).isEqualTo("`x.y`");
        assertThatThrownBy(() -> r.table(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names tables by topic, and the record has none");
    }

    @Test
    void theMapComesFirstThenTheTemplateOrTheTable() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("orders", "shop.orders");
        map.put("refunds", "shop.refunds");
        TableRoute r = TableRoute.of("db.events_{topic}", map);
        assertThat(r.table("orders")).isEqualTo("shop.orders");
        assertThat(r.table("views")).isEqualTo("db.events_views");
        assertThat(r.knownTables()).containsExactly("shop.orders", "shop.refunds");
        TableRoute fallback = TableRoute.of("db.other", map);
        assertThat(fallback.table("views")).isEqualTo("db.other");
        assertThat(fallback.knownTables())
                .containsExactly("db.other", "shop.orders", "shop.refunds");
        TableRoute onlyMap = TableRoute.of(null, map);
        assertThat(onlyMap.table("refunds")).isEqualTo("shop.refunds");
        assertThatThrownBy(() -> onlyMap.table("views"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "no table for topic 'views': sink.clickhouse.tables does not map it and"
                                + " sink.clickhouse.table is not set");
        assertThat(onlyMap.describe()).isEqualTo("orders → shop.orders, refunds → shop.refunds");
    }

    @Test
    void badRoutesAreRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> TableRoute.of("db.events_{partition}", Map.of()))
                .hasMessageContaining("unknown placeholder {partition}")
                .hasMessageContaining("the one placeholder is {topic}");
        assertThatThrownBy(() -> TableRoute.of("db.events_{topic", Map.of()))
                .hasMessageContaining("a '{' without its '}'");
        assertThatThrownBy(() -> TableRoute.of("db.events_topic}", Map.of()))
                .hasMessageContaining("a '}' without its '{'");
        assertThatThrownBy(() -> TableRoute.of("{topic}_db.events", Map.of()))
                .hasMessageContaining("{topic} may name the table, not its database");
        assertThatThrownBy(() -> TableRoute.of("db.t", Map.of("a", "db.{topic}")))
                .hasMessageContaining("tables.a")
                .hasMessageContaining("a mapped table is a table, not a template");
        assertThatThrownBy(() -> TableRoute.of(null, Map.of()))
                .hasMessageContaining("needs a table");
        assertThatThrownBy(() -> TableRoute.of("  ", Map.of())).hasMessageContaining("blank");
    }
}
