package dev.sluice.clickhouse.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TypeParserTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Int8",
                "Int16",
                "Int32",
                "Int64",
                "Int128",
                "Int256",
                "UInt8",
                "UInt16",
                "UInt32",
                "UInt64",
                "UInt128",
                "UInt256",
                "Float32",
                "Float64",
                "BFloat16",
                "Bool",
                "String",
                "Date",
                "Date32",
                "UUID",
                "IPv4",
                "IPv6",
                "Nothing",
                "DateTime",
                "DateTime('Europe/Moscow')",
                "DateTime64(3)",
                "DateTime64(9, 'UTC')",
                "Decimal(9, 2)",
                "Decimal(76, 10)",
                "FixedString(16)",
                "Enum8('a' = 1, 'b' = -2)",
                "Enum16('y\\'z' = -5, 'x' = 1000)",
                "Nullable(String)",
                "Array(Array(Nullable(UInt8)))",
                "LowCardinality(Nullable(String))",
                "Array(LowCardinality(String))",
                "Tuple(String, Int64)",
                "Tuple(a String, b Nullable(Int64))",
                "Map(String, Array(UInt64))",
                "Map(LowCardinality(String), String)",
                "SimpleAggregateFunction(sum, UInt64)",
                "JSON",
                "Object('json')"
            })
    void canonicalNamesRoundTrip(String name) {
        assertThat(TypeParser.parse(name).typeName()).isEqualTo(name);
    }

    @Test
    void aliasesParseToCanonicalTypes() {
        assertThat(TypeParser.parse("Decimal32(4)")).isEqualTo(new DecimalType(9, 4));
        assertThat(TypeParser.parse("Decimal64(4)")).isEqualTo(new DecimalType(18, 4));
        assertThat(TypeParser.parse("Decimal128(4)")).isEqualTo(new DecimalType(38, 4));
        assertThat(TypeParser.parse("Decimal256(4)")).isEqualTo(new DecimalType(76, 4));
        assertThat(TypeParser.parse("Decimal(20)").typeName()).isEqualTo("Decimal(20, 0)");
        assertThat(TypeParser.parse("  Array( Nullable ( String ) ) ").typeName())
                .isEqualTo("Array(Nullable(String))");
    }

    @Test
    void nestedIsAnArrayOfNamedTuples() {
        ClickHouseType t = TypeParser.parse("Nested(x UInt8, y String)");
        assertThat(t)
                .isEqualTo(
                        new ArrayType(
                                new TupleType(
                                        List.of(SimpleType.UINT8, SimpleType.STRING),
                                        List.of("x", "y"))));
    }

    @Test
    void decimalWidthFollowsPrecision() {
        assertThat(new DecimalType(9, 0).byteWidth()).isEqualTo(4);
        assertThat(new DecimalType(10, 0).byteWidth()).isEqualTo(8);
        assertThat(new DecimalType(18, 0).byteWidth()).isEqualTo(8);
        assertThat(new DecimalType(19, 0).byteWidth()).isEqualTo(16);
        assertThat(new DecimalType(38, 0).byteWidth()).isEqualTo(16);
        assertThat(new DecimalType(39, 0).byteWidth()).isEqualTo(32);
    }

    @Test
    void enumEntriesAndLookups() {
        EnumType e = (EnumType) TypeParser.parse("Enum8('it\\'s' = 1, 'b' = -128, 'c' = 127)");
        assertThat(e.valueOf("it's")).isEqualTo(1);
        assertThat(e.nameOf(-128)).isEqualTo("b");
        assertThat(e.valueOf("zzz")).isEqualTo(Integer.MIN_VALUE);
        assertThatThrownBy(() -> TypeParser.parse("Enum8('a' = 128)"))
                .hasMessageContaining("outside -128..127");
    }

    @Test
    void backquotedTupleNames() {
        TupleType t = (TupleType) TypeParser.parse("Tuple(`a b` String, `c` UInt8)");
        assertThat(t.names()).containsExactly("a b", "c");
        assertThat(t.typeName()).isEqualTo("Tuple(`a b` String, c UInt8)");
    }

    @Test
    void simpleAggregateFunctionEncodesAsItsArgument() {
        ClickHouseType t = TypeParser.parse("SimpleAggregateFunction(anyLast, Nullable(String))");
        assertThat(t.wireType()).isEqualTo(new NullableType(SimpleType.STRING));
        assertThat(t.isNullable()).isTrue();
    }

    @Test
    void unknownTypesNameThemselves() {
        assertThatThrownBy(() -> TypeParser.parse("AggregateFunction(uniq, String)"))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageStartingWith("unsupported type AggregateFunction(uniq, String)");
        assertThatThrownBy(() -> TypeParser.parse("Array(Polygon)"))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageContaining("Array(Polygon)")
                .hasMessageContaining("Polygon");
        assertThatThrownBy(() -> TypeParser.parse("Nullable(String"))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageContaining("expected ')'");
        UnsupportedTypeException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        UnsupportedTypeException.class, () -> TypeParser.parse("Variant(String)"));
        assertThat(e.inColumn("payload").getMessage())
                .isEqualTo("unsupported type Variant(String) in column payload");
    }
}
