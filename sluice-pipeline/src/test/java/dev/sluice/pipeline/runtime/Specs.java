package dev.sluice.pipeline.runtime;

import dev.sluice.pipeline.errors.ErrorPolicy;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.AdminSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BackpressureSpec;
import dev.sluice.pipeline.spec.PipelineSpec.BatchSpec;
import dev.sluice.pipeline.spec.PipelineSpec.CheckpointSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.ErrorsSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.spec.PipelineSpec.OnUnknownOutcome;
import dev.sluice.pipeline.spec.PipelineSpec.RetrySpec;
import dev.sluice.pipeline.spec.PipelineSpec.ShardSpec;
import dev.sluice.pipeline.spec.PipelineSpec.SinkSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pipeline specs for tests, with the defaults a parser would apply. */
final class Specs {
    private Specs() {}

    static PipelineSpec spec(
            int threads,
            int shards,
            int inflight,
            long maxBytes,
            long budget,
            double high,
            double low) {
        List<ShardSpec> list = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            list.add(new ShardSpec(List.of("clickhouse://shard" + s + ":9000/db"), 1));
        }
        return new Builder()
                .threads(threads)
                .shards(list)
                .inflight(inflight)
                .maxBytes(maxBytes)
                .budget(budget, high, low)
                .build();
    }

    /** A spec with every knob a test may turn. */
    static final class Builder {
        String name = "test";
        int threads = 1;
        List<ShardSpec> shards = List.of(new ShardSpec(List.of("clickhouse://a:9000/db"), 1));
        String table = "db.t";
        int maxRows = 1000;
        long maxBytes = 1 << 20;
        Duration linger = Duration.ofSeconds(1);
        int inflight = 2;
        Map<String, String> settings = Map.of();
        RetrySpec retry = new RetrySpec(Duration.ofMillis(1), Duration.ofMillis(10), 2.0, 0.2, 0);
        ErrorPolicy policy = ErrorPolicy.FAIL;
        long maxErrors = -1;
        long budget;
        double high = 0.8;
        double low = 0.5;
        Duration interval = Duration.ofSeconds(5);
        Path dir;
        String listen;
        boolean presort;
        boolean partitionSplit;
        OnUnknownOutcome onUnknownOutcome;
        Duration outcomeTimeout = PipelineSpec.DEFAULT_OUTCOME_TIMEOUT;

        Builder onUnknownOutcome(OnUnknownOutcome o) {
            onUnknownOutcome = o;
            return this;
        }

        Builder presort(boolean on) {
            presort = on;
            return this;
        }

        Builder partitionSplit(boolean on) {
            partitionSplit = on;
            return this;
        }

        Builder threads(int n) {
            threads = n;
            return this;
        }

        Builder shards(List<ShardSpec> s) {
            shards = s;
            return this;
        }

        Builder inflight(int n) {
            inflight = n;
            return this;
        }

        Builder maxRows(int n) {
            maxRows = n;
            return this;
        }

        Builder maxBytes(long n) {
            maxBytes = n;
            return this;
        }

        Builder linger(Duration d) {
            linger = d;
            return this;
        }

        Builder budget(long bytes, double high, double low) {
            this.budget = bytes;
            this.high = high;
            this.low = low;
            return this;
        }

        Builder policy(ErrorPolicy p) {
            policy = p;
            return this;
        }

        Builder retry(RetrySpec r) {
            retry = r;
            return this;
        }

        Builder settings(Map<String, String> s) {
            settings = s;
            return this;
        }

        Builder checkpoint(Path d, Duration every) {
            dir = d;
            interval = every;
            return this;
        }

        Builder admin(String l) {
            listen = l;
            return this;
        }

        Builder table(String t) {
            table = t;
            return this;
        }

        PipelineSpec build() {
            return new PipelineSpec(
                    name,
                    threads,
                    new PipelineSpec.StdinSource(1 << 20),
                    new DecodeSpec(Format.CSV, List.of(), false, Map.of(), false, ','),
                    List.of(),
                    new SinkSpec(
                            shards,
                            table,
                            new BatchSpec(maxRows, maxBytes, linger),
                            inflight,
                            "lz4",
                            presort,
                            partitionSplit,
                            settings,
                            retry,
                            onUnknownOutcome,
                            outcomeTimeout),
                    new ErrorsSpec(policy, null, maxErrors),
                    new BackpressureSpec(budget, high, low),
                    new CheckpointSpec(interval, dir),
                    new AdminSpec(listen));
        }
    }
}
