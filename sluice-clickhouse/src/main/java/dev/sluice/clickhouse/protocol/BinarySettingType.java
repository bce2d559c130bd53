package dev.sluice.clickhouse.protocol;

import dev.sluice.clickhouse.io.WireOutput;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How one setting's value is encoded in the BINARY settings format of revisions below 54429, where
 * the value's bytes depend on the setting's C++ type (ClickHouse 18.x {@code SettingsCommon.cpp},
 * {@code Setting*::write}):
 *
 * <pre>
 * SettingUInt64, SettingBool, SettingSeconds,
 * SettingMilliseconds, SettingMaxThreads        VarUInt (Bool is a UInt64; MaxThreads 'auto' = 0)
 * SettingInt64                                  zig-zag VarInt
 * SettingFloat                                  String: the number as text
 * SettingString, SettingChar and the enums      String
 * </pre>
 *
 * There is no type tag: a server that expects a VarUInt and reads a String is out of step with the
 * rest of the packet, so every value is checked here before anything is written.
 */
enum BinarySettingType {
    UINT64,
    /** Accepts {@code true}/{@code false} as well as numbers: 18.x stores booleans as UInt64. */
    BOOL,
    /** Accepts {@code auto}, sent as 0. */
    MAX_THREADS,
    INT64,
    FLOAT,
    STRING;

    // Plain decimal notation, which any ClickHouse parses; inf, nan and hex floats are refused.
    private static final Pattern DECIMAL_FLOAT =
            Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    /** Maps the C++ type named in {@code Settings.h} to its wire form. */
    static BinarySettingType ofClickHouseType(String cppType) {
        return switch (cppType) {
            case "SettingUInt64", "SettingSeconds", "SettingMilliseconds" -> UINT64;
            case "SettingBool" -> BOOL;
            case "SettingMaxThreads" -> MAX_THREADS;
            case "SettingInt64" -> INT64;
            case "SettingFloat" -> FLOAT;
            case "SettingString",
                    "SettingChar",
                    "SettingLoadBalancing",
                    "SettingTotalsMode",
                    "SettingCompressionMethod",
                    "SettingDistributedProductMode",
                    "SettingJoinStrictness",
                    "SettingDateTimeInputFormat",
                    "SettingLogsLevel",
                    "SettingOverflowMode<false>",
                    "SettingOverflowMode<true>" ->
                    STRING;
            default -> throw new IllegalArgumentException("unknown setting type " + cppType);
        };
    }

    /** Writes {@code value} in this form, or throws before writing anything. */
    void write(WireOutput out, String name, String value) {
        switch (this) {
            case UINT64 -> out.writeVarUInt(unsigned(name, value));
            case BOOL -> out.writeVarUInt(bool(name, value));
            case MAX_THREADS ->
                    out.writeVarUInt(value.equalsIgnoreCase("auto") ? 0 : unsigned(name, value));
            case INT64 -> out.writeVarUInt(zigZag(signed(name, value)));
            case FLOAT -> {
                if (!DECIMAL_FLOAT.matcher(value).matches()) {
                    throw badValue(name, value, "a decimal number");
                }
                out.writeString(value);
            }
            case STRING -> out.writeString(value);
        }
    }

    private static long bool(String name, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> 1;
            case "false" -> 0;
            default -> unsigned(name, value);
        };
    }

    private static long unsigned(String name, String value) {
        if (value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw badValue(name, value, "an unsigned integer");
        }
        try {
            return Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            throw badValue(name, value, "an unsigned 64-bit integer");
        }
    }

    private static long signed(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw badValue(name, value, "a signed 64-bit integer");
        }
    }

    // ClickHouse writeVarInt: the sign moves to bit 0 so small negative numbers stay short.
    private static long zigZag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static IllegalArgumentException badValue(String name, String value, String expected) {
        return new IllegalArgumentException(
                "setting " + name + " = '" + value + "': expected " + expected);
    }
}
