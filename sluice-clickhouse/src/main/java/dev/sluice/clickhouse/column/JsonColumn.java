package dev.sluice.clickhouse.column;

import dev.sluice.clickhouse.io.WireInput;
import dev.sluice.clickhouse.io.WireOutput;
import dev.sluice.clickhouse.types.JsonType;

/**
 * JSON sent as text: a String column behind the serialization-version prefix {@code UInt64 1}
 * ("string"), which servers with the JSON type accept on insert.
 */
public final class JsonColumn extends StringColumn {
    static final long STRING_SERIALIZATION_VERSION = 1;

    public JsonColumn(String name, JsonType type) {
        super(name, type);
    }

    @Override
    public void writePrefix(WireOutput out) {
        out.writeInt64(STRING_SERIALIZATION_VERSION);
    }

    @Override
    public void readPrefix(WireInput in) {
        long version = in.readInt64();
        if (version != STRING_SERIALIZATION_VERSION) {
            throw new dev.sluice.clickhouse.io.WireException(
                    "column "
                            + name
                            + ": JSON serialization version "
                            + version
                            + " is not supported (only 1, string); read with"
                            + " output_format_native_write_json_as_string=1");
        }
    }
}
