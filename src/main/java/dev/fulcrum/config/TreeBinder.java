package dev.fulcrum.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a parsed JSON tree into records (the config's, and those of an admin request body or a lesson action,
 * {@link JsonBinder#bind}), collecting every structural problem on the way instead of stopping at the first: unknown
 * fields, wrong JSON types, numbers out of the Java type's range and missing required fields, each with its JSON path.
 * Each verdict and its message is {@link JsonBinder}'s, the one rulebook for JSON values.
 *
 * <p>Why a walker of our own rather than Jackson data binding: Jackson stops at the first bad property, and its
 * messages name Java types, not JSON paths. The schema is the records themselves (component name = JSON name,
 * component type = JSON type), read by reflection, so a field added to a record is understood here without a second
 * description to keep in step. Records of other packages say their defaults, required fields and JSON names that
 * differ from a component's in a {@link JsonBinder.Shape}.
 *
 * <p>Where a value is wrong, the walker puts the default in its place and carries on, so the semantic checks of
 * {@link ConfigValidator} can still run over the rest of the file.
 */
final class TreeBinder {
    /** Values for the fields a list or map entry leaves out (a top-level part falls back to its default instead). */
    private static final Map<Class<?>, Object> ENTRY_DEFAULTS = Map.ofEntries(
            Map.entry(BackendConfig.class, BackendConfig.DEFAULTS),
            Map.entry(DemoBackendConfig.class, DemoBackendConfig.DEFAULTS),
            Map.entry(RouteConfig.class, RouteConfig.DEFAULTS),
            Map.entry(RouteMatchConfig.class, RouteMatchConfig.DEFAULTS),
            Map.entry(MatchValue.class, MatchValue.DEFAULTS),
            Map.entry(SplitArmConfig.class, SplitArmConfig.DEFAULTS),
            Map.entry(MirrorConfig.class, MirrorConfig.DEFAULTS),
            Map.entry(GuardConfig.class, GuardConfig.DEFAULTS),
            Map.entry(PoolConfig.class, PoolConfig.DEFAULTS),
            Map.entry(DiscoveryConfig.class, DiscoveryConfig.DEFAULTS),
            // a strategy object starts empty; withDefaults() later fills what its type uses
            Map.entry(StrategySpec.class, StrategySpec.bare(null)));

    /** Fields without which an entry means nothing (a route's: one of two, which the validator says). */
    private static final Map<Class<?>, Set<String>> REQUIRED = Map.of(
            BackendConfig.class, Set.of("id", "url"),
            DemoBackendConfig.class, Set.of("id", "port"),
            SplitArmConfig.class, Set.of("pool", "weight"),
            MirrorConfig.class, Set.of("pool"),
            GuardConfig.class, Set.of("arm"),
            DiscoveryConfig.class, Set.of("type"));

    private final JsonBinder json;

    TreeBinder(List<ConfigProblem> problems) {
        this(new JsonBinder(problems));
    }

    TreeBinder(JsonBinder json) {
        this.json = json;
    }

    /** Binds {@code node} as a {@code type} found at {@code path}; {@code fallback} stands in for a wrong value. */
    @SuppressWarnings("unchecked")
    <T> T bind(JsonNode node, Class<T> type, T fallback, String path) {
        return (T) value(node, type, fallback, path);
    }

    private Object value(JsonNode node, Type type, Object fallback, String path) {
        Class<?> raw = raw(type);
        if (node.isNull() && (raw == String.class || !raw.isPrimitive() && SCALARS.contains(raw))) {
            // a field that may be left unset takes null as unset; whether unset is allowed is the validator's call
            return null;
        }
        Object scalar = scalar(node, raw, path);
        if (scalar != NOT_SCALAR) {
            return scalar == null ? fallback : scalar;
        }
        if (raw == List.class) {
            return list(node, elementType(type, 0), fallback, path);
        }
        if (raw == Map.class) {
            return map(node, elementType(type, 1), fallback, path);
        }
        if (raw == StrategySpec.class) {
            return strategy(node, fallback, path);
        }
        if (raw == Object.class) {
            return numberOrWord(node, fallback, path);
        }
        if (raw == MatchValue.class && node.isTextual()) {
            return MatchValue.exactly(node.textValue()); // a route's match value: a bare string is the exact value
        }
        if (raw == MatchValue.class && !node.isObject()) {
            // "X-Canary": 1 is no match value: say both forms it may take, not only the object's
            json.wrong(path, MatchValue.RULE, node);
            return fallback;
        }
        if (raw.isRecord()) {
            return record(node, raw, fallback, path);
        }
        throw new IllegalStateException("no JSON mapping for " + type + " at " + path);
    }

    private static final Object NOT_SCALAR = new Object();
    private static final Set<Class<?>> SCALARS = Set.of(int.class, Integer.class, long.class, Long.class,
            double.class, Double.class, boolean.class, Boolean.class, String.class);

    /** A scalar of {@code raw}'s kind through the binder (null after its verdict), or NOT_SCALAR for the rest. */
    private Object scalar(JsonNode node, Class<?> raw, String path) {
        if (raw == int.class || raw == Integer.class) {
            return json.integer(node, path);
        }
        if (raw == long.class || raw == Long.class) {
            return json.longInteger(node, path);
        }
        if (raw == double.class || raw == Double.class) {
            return json.number(node, path);
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return json.bool(node, path);
        }
        if (raw == String.class) {
            return json.string(node, path);
        }
        return NOT_SCALAR;
    }

    private Object list(JsonNode node, Type elementType, Object fallback, String path) {
        List<Object> out = json.list(node, path, (v, at) -> entry(v, elementType, at));
        return out == null ? fallback : out;
    }

    private Object map(JsonNode node, Type valueType, Object fallback, String path) {
        Map<String, Object> out = json.map(node, path, (v, at) -> entry(v, valueType, at));
        return out == null ? fallback : out;
    }

    /**
     * A list element or map value. A record entry that is not an object becomes its entry defaults (a placeholder),
     * so the entries after it keep their index in the bound list and the validator's paths stay right; the loader
     * drops the validator's findings under a path the binder already reported. A wrong scalar entry, null among
     * them (an entry is never unset), is left out.
     */
    private Object entry(JsonNode node, Type type, String path) {
        Class<?> raw = raw(type);
        Object placeholder = defaults(raw, null);
        if (node.isNull()) {
            Object scalar = scalar(node, raw, path);
            if (scalar == NOT_SCALAR) {
                json.wrong(path, raw == List.class ? JsonBinder.MUST_BE_ARRAY
                        : raw == MatchValue.class ? MatchValue.RULE : JsonBinder.MUST_BE_OBJECT, node);
            }
            return placeholder;
        }
        return value(node, type, placeholder, path);
    }

    private Object record(JsonNode node, Class<?> type, Object fallback, String path) {
        if (!json.object(node, path)) {
            return fallback;
        }
        RecordComponent[] components = type.getRecordComponents();
        Object defaults = defaults(type, fallback);
        JsonBinder.Shape<?> shape = json.shape(type);
        Set<String> required = shape != null ? shape.required() : REQUIRED.getOrDefault(type, Set.of());
        Set<String> known = Arrays.stream(components).map(c -> name(shape, c))
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!known.contains(e.getKey())) {
                json.unknown(ConfigPaths.child(path, e.getKey()), e.getKey(), known, e.getValue());
            }
        }
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            types[i] = c.getType();
            Object dflt = defaults == null ? zero(c.getType()) : accessor(c, defaults);
            String name = name(shape, c);
            JsonNode child = node.get(name);
            String childPath = ConfigPaths.child(path, name);
            if (child == null) {
                if (required.contains(name)) {
                    json.missing(childPath);
                }
                args[i] = dflt;
            } else {
                args[i] = value(child, c.getGenericType(), dflt, childPath);
            }
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true); // a package's own records may be package-private
            return canonical.newInstance(args);
        } catch (InvocationTargetException e) {
            // a compact constructor refused the values; report it rather than crash
            json.wrong(path, "is not valid: " + e.getCause().getMessage(), node);
            return fallback;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getName(), e);
        }
    }

    /**
     * A strategy object: {@code type}, then each setting bound by the kind its strategy's descriptor gives it (or, for
     * a setting that type does not take, the kind another strategy gives it, so that {@code Strategies.violations}
     * can say it is not used rather than that it is unknown). A name no strategy takes is an unknown field.
     */
    private Object strategy(JsonNode node, Object fallback, String path) {
        if (!json.object(node, path)) {
            return fallback;
        }
        JsonNode typeNode = node.get("type");
        String type = null;
        if (typeNode == null) {
            json.missing(ConfigPaths.child(path, "type"));
        } else {
            type = (String) value(typeNode, String.class, null, ConfigPaths.child(path, "type"));
        }
        Set<String> known = Strategies.fieldNames();
        Map<String, Object> options = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String name = e.getKey();
            if (name.equals("type")) {
                continue;
            }
            StrategyOption o = Strategies.option(type, name);
            String childPath = ConfigPaths.child(path, name);
            if (o == null) {
                json.unknown(childPath, name, known, e.getValue());
            } else if (!e.getValue().isNull()) {
                options.put(name, value(e.getValue(), o.kind().javaType(), null, childPath));
            }
        }
        return new StrategySpec(type, options);
    }

    /**
     * A setting that takes a number or a word (the score strategy's {@code missing}): a JSON number is bound as a
     * double, a string as itself; which words are allowed is the option's check.
     */
    private Object numberOrWord(JsonNode node, Object fallback, String path) {
        if (node.isNumber()) {
            Double d = json.number(node, path);
            return d == null ? fallback : d;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        json.wrong(path, "must be a number or a string", node);
        return fallback;
    }

    /** The values for what an object of {@code type} leaves out: its shape's, the config's entry defaults, else {@code fallback}. */
    private Object defaults(Class<?> type, Object fallback) {
        JsonBinder.Shape<?> shape = json.shape(type);
        if (shape != null && shape.defaults() != null) {
            return shape.defaults();
        }
        return ENTRY_DEFAULTS.getOrDefault(type, fallback);
    }

    /** A component's JSON name: its shape's, else the one its {@code @JsonProperty} gives ({@code "class"}), else its own. */
    private static String name(JsonBinder.Shape<?> shape, RecordComponent c) {
        if (shape != null) {
            return shape.jsonName(c.getName());
        }
        com.fasterxml.jackson.annotation.JsonProperty p =
                c.getAccessor().getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
        return p == null || p.value().isEmpty() ? c.getName() : p.value();
    }

    /** What a component left out holds without defaults: Java's zero for a primitive, else null. */
    private static Object zero(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        return type == boolean.class ? Boolean.FALSE : type == long.class ? (Object) 0L
                : type == double.class ? (Object) 0.0 : (Object) 0;
    }

    private static Object accessor(RecordComponent c, Object instance) {
        try {
            java.lang.reflect.Method get = c.getAccessor();
            get.setAccessible(true);
            return get.invoke(instance);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        throw new IllegalStateException("unsupported type " + type);
    }

    private static Type elementType(Type type, int index) {
        if (type instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[index];
        }
        throw new IllegalStateException("raw collection type " + type);
    }
}
