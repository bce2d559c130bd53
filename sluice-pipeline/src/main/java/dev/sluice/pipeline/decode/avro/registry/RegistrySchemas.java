package dev.sluice.pipeline.decode.avro.registry;

import dev.sluice.pipeline.decode.RecordException;
import dev.sluice.pipeline.decode.avro.WriterSchemas;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Writer schemas by id from a registry, cached: a schema id never changes its schema, so a parsed
 * schema is kept for good; an id the registry does not know is remembered as unknown for {@code
 * unknown_id_ttl} (a negative cache: a stream of records with a bad id asks once per TTL, not per
 * record); an id whose schema is not Avro, or not valid, is remembered for good. Shared by the
 * pipeline's threads.
 *
 * <p>References (named types a schema takes from other subjects) are fetched and parsed first,
 * depth first, so that the schema can use them.
 */
public final class RegistrySchemas implements WriterSchemas {
    static final int MAX_REFERENCE_DEPTH = 32;

    /** A schema, or why there is none: until {@code expiresNanos}, or for good. */
    private record Entry(Schema schema, String failure, long expiresNanos, boolean forGood) {
        boolean fresh(long now) {
            return schema != null || forGood || now - expiresNanos < 0;
        }
    }

    private final RegistryClient client;
    private final Clock clock;
    private final long unknownTtlNanos;
    private final ConcurrentHashMap<Integer, Entry> cache = new ConcurrentHashMap<>();

    public RegistrySchemas(RegistryClient client, Clock clock, Duration unknownIdTtl) {
        this.client = client;
        this.clock = clock;
        this.unknownTtlNanos = unknownIdTtl.toNanos();
    }

    /** The schemas of the registry {@code spec} names, this process's environment and clock. */
    public static RegistrySchemas open(RegistrySpec spec) {
        return new RegistrySchemas(
                new RegistryClient(spec, Clock.SYSTEM, System::getenv),
                Clock.SYSTEM,
                spec.unknownIdTtl());
    }

    public RegistryClient client() {
        return client;
    }

    @Override
    public String describe() {
        return "registry " + client.url();
    }

    @Override
    public Schema schema(int id) throws RecordException {
        Entry e = cache.get(id);
        if (e != null && e.fresh(clock.nanoTime())) {
            return unwrap(e);
        }
        e = fetch(id);
        cache.put(id, e);
        return unwrap(e);
    }

    private static Schema unwrap(Entry e) throws RecordException {
        if (e.schema == null) {
            throw new RecordException(null, e.failure);
        }
        return e.schema;
    }

    private Entry fetch(int id) {
        String idText = Integer.toUnsignedString(id);
        RegisteredSchema s;
        try {
            s = client.schemaById(id);
        } catch (RegistryException e) {
            return new Entry(
                    null,
                    "unknown schema id "
                            + idText
                            + " (registry "
                            + client.url()
                            + ": "
                            + e.getMessage()
                            + ")",
                    clock.nanoTime() + unknownTtlNanos,
                    false);
        }
        if (!"AVRO".equalsIgnoreCase(s.type())) {
            return forGood("schema id " + idText + " is a " + s.type() + " schema, not Avro");
        }
        try {
            Schema.Parser parser = new Schema.Parser();
            for (RegisteredSchema r : references(s, new HashSet<>(), 0)) {
                parser.parse(r.schema());
            }
            return new Entry(parser.parse(s.schema()), null, 0, true);
        } catch (SchemaParseException e) {
            return forGood(
                    "schema id " + idText + " is not a valid Avro schema: " + e.getMessage());
        } catch (RegistryException e) {
            return forGood(
                    "schema id "
                            + idText
                            + " refers to a schema the registry does not have: "
                            + e.getMessage());
        }
    }

    private static Entry forGood(String failure) {
        return new Entry(null, failure, 0, true);
    }

    /** The schemas {@code s} refers to, each after those it refers to itself. */
    private List<RegisteredSchema> references(RegisteredSchema s, Set<String> seen, int depth)
            throws RegistryException {
        List<RegisteredSchema> out = new ArrayList<>();
        if (depth > MAX_REFERENCE_DEPTH) {
            throw new SchemaParseException(
                    "references nest deeper than " + MAX_REFERENCE_DEPTH + " (a cycle?)");
        }
        for (RegisteredSchema.Reference r : s.references()) {
            String key = r.subject() + "/" + r.version();
            if (!seen.add(key)) {
                continue;
            }
            RegisteredSchema referenced =
                    client.subjectVersion(
                            r.subject(),
                            r.version() < 0 ? "latest" : Integer.toString(r.version()));
            out.addAll(references(referenced, seen, depth + 1));
            out.add(referenced);
        }
        return out;
    }
}
