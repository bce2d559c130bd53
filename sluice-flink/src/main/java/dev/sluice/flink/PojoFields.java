package dev.sluice.flink;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of a POJO or record class by name: a record's components, or a class's public
 * non-static fields and its public getters ({@code getX()}/{@code isX()} give column {@code x}).
 * The accessors are looked up once per task, not per element.
 */
public final class PojoFields<T> implements RecordFields<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private transient Map<String, MethodHandle> accessors;

    private PojoFields(Class<T> type) {
        this.type = type;
        accessors(); // fails at job build time for a class without fields
    }

    /**
     * The fields of {@code type}'s instances.
     *
     * @throws IllegalArgumentException when {@code type} has no readable field
     */
    public static <T> PojoFields<T> of(Class<T> type) {
        return new PojoFields<>(type);
    }

    @Override
    public Map<String, ?> fields(T element) {
        if (element == null) {
            throw new IllegalArgumentException("a null element cannot become a row");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, MethodHandle> e : accessors().entrySet()) {
            try {
                out.put(e.getKey(), e.getValue().invoke(element));
            } catch (Throwable t) {
                throw new IllegalArgumentException(
                        "reading " + type.getSimpleName() + "." + e.getKey() + ": " + t, t);
            }
        }
        return out;
    }

    private Map<String, MethodHandle> accessors() {
        if (accessors == null) {
            accessors = lookUp(type);
        }
        return accessors;
    }

    private static Map<String, MethodHandle> lookUp(Class<?> type) {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Map<String, MethodHandle> m = new LinkedHashMap<>();
        try {
            if (type.isRecord()) {
                for (RecordComponent c : type.getRecordComponents()) {
                    m.put(c.getName(), lookup.unreflect(c.getAccessor()));
                }
            } else {
                for (Field f : type.getFields()) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        m.put(f.getName(), lookup.unreflectGetter(f));
                    }
                }
                for (Method g : type.getMethods()) {
                    String name = propertyOf(g);
                    if (name != null && !m.containsKey(name)) {
                        m.put(name, lookup.unreflect(g));
                    }
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(
                    type.getName() + " is not public: its fields cannot be read", e);
        }
        if (m.isEmpty()) {
            throw new IllegalArgumentException(
                    type.getName() + " has no public fields, getters or record components");
        }
        return m;
    }

    private static String propertyOf(Method g) {
        if (Modifier.isStatic(g.getModifiers())
                || g.getParameterCount() != 0
                || g.getDeclaringClass() == Object.class) {
            return null;
        }
        String n = g.getName();
        int prefix =
                n.startsWith("get") && n.length() > 3
                        ? 3
                        : n.startsWith("is")
                                        && n.length() > 2
                                        && (g.getReturnType() == boolean.class
                                                || g.getReturnType() == Boolean.class)
                                ? 2
                                : 0;
        if (prefix == 0) {
            return null;
        }
        return Character.toLowerCase(n.charAt(prefix)) + n.substring(prefix + 1);
    }
}
