package dev.sluice.pipeline.decode.avro;

import dev.sluice.pipeline.decode.DecoderUnavailableException;
import dev.sluice.pipeline.decode.avro.registry.RegisteredSchema;
import dev.sluice.pipeline.decode.avro.registry.RegistryClient;
import dev.sluice.pipeline.decode.avro.registry.RegistryException;
import dev.sluice.pipeline.spec.PipelineSpec.AvroFraming;
import dev.sluice.pipeline.spec.PipelineSpec.AvroSpec;
import dev.sluice.pipeline.spec.PipelineSpec.RegistrySpec;
import dev.sluice.pipeline.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * What {@code sluice check} says about Avro decoding, without reading a record: the schema file
 * parses (raw), or the registry answers — with the configured credentials — and the configured
 * subject has a latest Avro schema (Confluent framing).
 */
public final class AvroCheck {
    private AvroCheck() {}

    /** One line of the report: fine, or a problem. */
    public record Finding(boolean ok, String text) {}

    /**
     * The report, and the writer schema found (the schema file's, or the configured subject's
     * latest), or null — to check against the columns ({@link AvroDecoder#problemWith}).
     *
     * @param describe the schema in messages
     */
    public record Report(List<Finding> findings, Schema schema, String describe) {}

    /** Asks the registry once (no retries: a check reports, it does not wait for a recovery). */
    public static List<Finding> check(AvroSpec spec, Clock clock, Function<String, String> env) {
        return report(spec, clock, env).findings();
    }

    /** As {@link #check}, with the writer schema found. */
    public static Report report(AvroSpec spec, Clock clock, Function<String, String> env) {
        List<Finding> out = new ArrayList<>();
        if (spec.framing() == AvroFraming.RAW) {
            try {
                Schema s = AvroSchemaFile.load(spec.schemaFile());
                out.add(
                        new Finding(
                                true, "avro schema file " + spec.schemaFile() + ": " + shape(s)));
                return new Report(out, s, "the schema file");
            } catch (IllegalArgumentException e) {
                out.add(new Finding(false, e.getMessage()));
                return new Report(out, null, null);
            }
        }
        RegistrySpec r = spec.registry();
        RegistrySpec once =
                new RegistrySpec(
                        r.url(),
                        r.username(),
                        r.passwordFile(),
                        r.passwordEnv(),
                        r.timeout(),
                        Duration.ZERO,
                        r.unknownIdTtl(),
                        r.subject());
        RegistryClient client;
        try {
            client = new RegistryClient(once, clock, env);
        } catch (IllegalArgumentException e) {
            out.add(new Finding(false, e.getMessage()));
            return new Report(out, null, null);
        }
        try {
            int subjects = client.subjects().size();
            out.add(
                    new Finding(
                            true,
                            "schema registry "
                                    + client.url()
                                    + " reachable ("
                                    + subjects
                                    + " subjects"
                                    + (r.username() == null ? "" : ", as " + r.username())
                                    + ")"));
        } catch (DecoderUnavailableException | RegistryException e) {
            out.add(new Finding(false, e.getMessage()));
            return new Report(out, null, null);
        }
        if (r.subject() == null) {
            return new Report(out, null, null);
        }
        String where = "subject " + r.subject();
        try {
            RegisteredSchema latest = client.subjectVersion(r.subject(), "latest");
            if (!"AVRO".equalsIgnoreCase(latest.type())) {
                out.add(new Finding(false, where + ": a " + latest.type() + " schema, not Avro"));
                return new Report(out, null, null);
            }
            // A schema with references is parsed by the decoder's registry client; its shape is
            // not shown here.
            Schema found =
                    latest.references().isEmpty()
                            ? new Schema.Parser().parse(latest.schema())
                            : null;
            String shape =
                    found != null ? shape(found) : latest.references().size() + " reference(s)";
            out.add(
                    new Finding(
                            true,
                            where
                                    + ": version "
                                    + latest.version()
                                    + ", schema id "
                                    + latest.id()
                                    + " ("
                                    + shape
                                    + ")"));
            return new Report(out, found, where + "'s latest schema (id " + latest.id() + ")");
        } catch (RegistryException | DecoderUnavailableException | SchemaParseException e) {
            out.add(new Finding(false, where + ": " + e.getMessage()));
            return new Report(out, null, null);
        }
    }

    private static String shape(Schema s) {
        return s.getType() == Schema.Type.RECORD
                ? "record " + s.getFullName() + ", " + s.getFields().size() + " fields"
                : PlanCompiler.avroType(s) + ", not a record";
    }
}
