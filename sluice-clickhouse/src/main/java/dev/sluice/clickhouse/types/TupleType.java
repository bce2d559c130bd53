package dev.sluice.clickhouse.types;

import java.util.List;

/**
 * {@code Tuple(T1, T2)} or named {@code Tuple(a T1, b T2)}: one column per element. Names do not
 * change the bytes; {@code names} is empty for unnamed tuples.
 */
public record TupleType(List<ClickHouseType> elements, List<String> names)
        implements ClickHouseType {

    public TupleType {
        elements = List.copyOf(elements);
        names = List.copyOf(names);
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("Tuple needs at least one element");
        }
        if (!names.isEmpty() && names.size() != elements.size()) {
            throw new IllegalArgumentException("Tuple names must name every element");
        }
    }

    public static TupleType of(List<ClickHouseType> elements) {
        return new TupleType(elements, List.of());
    }

    public boolean isNamed() {
        return !names.isEmpty();
    }

    @Override
    public String typeName() {
        StringBuilder sb = new StringBuilder("Tuple(");
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            if (isNamed()) {
                sb.append(TypeParser.identifier(names.get(i))).append(' ');
            }
            sb.append(elements.get(i).typeName());
        }
        return sb.append(')').toString();
    }
}
