package dev.sluice.pipeline.source.stdin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.pipeline.source.Checkpoint;
import dev.sluice.pipeline.source.PolledRecords;
import dev.sluice.pipeline.source.Rec;
import dev.sluice.pipeline.source.framing.Framer;
import java.io.ByteArrayInputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StdinSourceTest {

    @Test
    void readsAStreamAsOnePartitionOfByteOffsets() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            sb.append("{\"i\":").append(i).append("}\n");
        }
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        try (StdinSource s =
                new StdinSource(new ByteArrayInputStream(bytes), Framer.lines(), 1000, 4096)) {
            List<Rec> recs = Rec.drain(s, 500, 100_000, 100_000_000L);
            assertThat(recs).hasSize(10_000);
            assertThat(recs.get(0)).isEqualTo(new Rec("stdin", 0, 1, "{\"i\":0}", null));
            assertThat(recs.get(9_999).position()).isEqualTo(bytes.length - 11);
            assertThat(s.bytesRead()).isEqualTo(bytes.length);
            assertThat(s.bytesTotal()).isEqualTo(-1);
            assertThat(s.name()).isEqualTo("stdin");
        }
    }

    @Test
    void anIdlePipeMakesPollReturnWithinItsWait() throws Exception {
        PipedOutputStream writer = new PipedOutputStream();
        PipedInputStream pipe = new PipedInputStream(writer, 1 << 16);
        try (StdinSource s = new StdinSource(pipe, Framer.lines(), 1000, 4096)) {
            PolledRecords b = new PolledRecords();
            long start = System.nanoTime();
            assertThat(s.poll(b, 10, TimeUnit.MILLISECONDS.toNanos(50))).isZero();
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));

            writer.write("a\nb".getBytes(StandardCharsets.UTF_8));
            writer.flush();
            List<Rec> got = new ArrayList<>();
            for (int i = 0; i < 100 && got.isEmpty(); i++) {
                s.poll(b, 10, TimeUnit.MILLISECONDS.toNanos(50));
                got.addAll(Rec.of(b));
            }
            assertThat(got).extracting(Rec::text).containsExactly("a");
            writer.close();
            List<Rec> rest = Rec.drain(s, 10, 1000, 100_000_000L);
            assertThat(rest)
                    .extracting(Rec::text, Rec::position)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("b", 2L));
        }
    }

    @Test
    void commitsAreAcceptedAndForgotten() throws Exception {
        try (StdinSource s =
                new StdinSource(new ByteArrayInputStream(new byte[0]), Framer.lines(), 10, 64)) {
            s.commit(Map.of(StdinSource.PARTITION, Checkpoint.at(5)));
            PolledRecords b = new PolledRecords();
            int n = s.poll(b, 10, TimeUnit.SECONDS.toNanos(1));
            if (n == 0) {
                assertThat(b.partitionEnd).isTrue();
                n = s.poll(b, 10, 0);
            }
            assertThat(n).isEqualTo(-1);
        }
    }
}
