package dev.sluice.pipeline.decode.avro;

import dev.sluice.pipeline.decode.RecordException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/** Writer schemas held in memory by id, for unit tests (the registry's are tested in its ITs). */
final class MapSchemas implements WriterSchemas {
    final Map<Integer, Schema> byId = new HashMap<>();
    final AtomicInteger lookups = new AtomicInteger();

    MapSchemas with(int id, Schema s) {
        byId.put(id, s);
        return this;
    }

    @Override
    public Schema schema(int id) throws RecordException {
        lookups.incrementAndGet();
        Schema s = byId.get(id);
        if (s == null) {
            throw new RecordException(null, "unknown schema id " + id + " (test schemas)");
        }
        return s;
    }

    @Override
    public String describe() {
        return "test schemas";
    }
}
