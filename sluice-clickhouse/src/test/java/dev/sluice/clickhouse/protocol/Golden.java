package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.column.GoldenData;

/** ch-go's golden packet dumps ({@code golden/ch-go/proto/golden/} on the test classpath). */
final class Golden {

    private Golden() {}

    /** The bytes of {@code <name>.raw}, e.g. {@code client_hello} or {@code type/ServerHello}. */
    static byte[] bytes(String name) {
        return GoldenData.read("ch-go/proto/golden/" + name + ".raw");
    }
}
