package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireInput;
import java.util.List;

/**
 * Column metadata of an INSERT's target table, sent before the header block (revision 54410 and up;
 * 18.x servers send it only with {@code insert_sample_with_metadata=1}, newer ones with {@code
 * input_format_defaults_for_omitted_fields=1}, on by default).
 *
 * <pre>
 * String external_table_name ("" = the INSERT's table) | String columns_description
 * </pre>
 *
 * Same layout at every revision; the description is text, parsed by {@link #columns()}.
 */
public record TableColumns(String externalTableName, String columnsDescription) {

    /** Reads the body after the packet code. */
    public static TableColumns read(WireInput in, int revision) {
        return new TableColumns(in.readString(), in.readString());
    }

    /**
     * The parsed description; a malformed one throws {@link
     * dev.sluice.clickhouse.io.WireException}.
     */
    public List<ColumnDescription> columns() {
        return ColumnsDescriptionParser.parse(columnsDescription);
    }
}
