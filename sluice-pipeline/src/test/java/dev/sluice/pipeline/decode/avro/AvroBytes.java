package dev.sluice.pipeline.decode.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Avro records written by Avro's own GenericDatumWriter, raw or Confluent-framed. */
public final class AvroBytes {
    private AvroBytes() {}

    /** Avro's generic model with the logical-type conversions (BigDecimal, UUID, java.time). */
    public static final GenericData MODEL = model();

    private static GenericData model() {
        GenericData m = new GenericData();
        m.addLogicalTypeConversion(new Conversions.DecimalConversion());
        m.addLogicalTypeConversion(new Conversions.BigDecimalConversion());
        m.addLogicalTypeConversion(new Conversions.UUIDConversion());
        m.addLogicalTypeConversion(new Conversions.DurationConversion());
        m.addLogicalTypeConversion(new TimeConversions.DateConversion());
        m.addLogicalTypeConversion(new TimeConversions.TimeMillisConversion());
        m.addLogicalTypeConversion(new TimeConversions.TimeMicrosConversion());
        m.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        m.addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
        m.addLogicalTypeConversion(new TimeConversions.TimestampNanosConversion());
        m.addLogicalTypeConversion(new TimeConversions.LocalTimestampMillisConversion());
        m.addLogicalTypeConversion(new TimeConversions.LocalTimestampMicrosConversion());
        m.addLogicalTypeConversion(new TimeConversions.LocalTimestampNanosConversion());
        return m;
    }

    public static Schema schema(String json) {
        return new Schema.Parser().parse(json);
    }

    /** A record of {@code schema} with these field values (others are null). */
    public static GenericRecord record(Schema schema, Map<String, Object> values) {
        GenericData.Record r = new GenericData.Record(schema);
        values.forEach(r::put);
        return r;
    }

    /** The datum alone. */
    public static byte[] raw(Schema schema, Object datum) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<Object>(schema, MODEL).write(datum, enc);
            enc.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Confluent's wire format: 0, the id (4 bytes, big-endian), the datum. */
    public static byte[] framed(int id, Schema schema, Object datum) {
        byte[] body = raw(schema, datum);
        return ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(id).put(body).array();
    }
}
