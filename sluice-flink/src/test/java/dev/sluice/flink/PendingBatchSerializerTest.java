package dev.sluice.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pending batches survive a checkpoint: the same token, now() and rows, in order. */
class PendingBatchSerializerTest {
    @Test
    void aBatchComesBackAsItWent() throws IOException {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("id", 1L);
        a.put("name", "ann");
        a.put("price", new BigDecimal("12.50"));
        a.put("at", Instant.ofEpochSecond(1_700_000_000L, 5));
        a.put("day", LocalDate.of(2024, 5, 1));
        a.put("note", null);
        a.put("tags", List.of("x", "y"));
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("id", 2L);
        b.put("bytes", new byte[] {1, 2, 3});
        List<Map<String, Object>> rows = new ArrayList<>(List.of(a, b));
        PendingBatch batch = new PendingBatch("flink/job/0/abc", 1_700_000_123L, rows);
        PendingBatchSerializer s = new PendingBatchSerializer();
        PendingBatch back = s.deserialize(s.getVersion(), s.serialize(batch));
        assertThat(back.token()).isEqualTo("flink/job/0/abc");
        assertThat(back.nowSeconds()).isEqualTo(1_700_000_123L);
        assertThat(back.rows()).hasSize(2);
        assertThat(back.rows().get(0)).containsExactlyEntriesOf(a);
        assertThat(back.rows().get(1).keySet()).containsExactly("id", "bytes");
        assertThat((byte[]) back.rows().get(1).get("bytes")).containsExactly(1, 2, 3);
    }

    @Test
    void anUnknownVersionIsRefused() {
        assertThatThrownBy(() -> new PendingBatchSerializer().deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown version 2");
    }
}
