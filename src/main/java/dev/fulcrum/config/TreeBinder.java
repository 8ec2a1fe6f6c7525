package dev.fulcrum.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyDescriptor;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a parsed JSON tree into the config records, collecting every structural problem on the way instead of
 * stopping at the first: unknown fields, wrong JSON types, numbers out of the Java type's range and missing
 * required fields, each with its JSON path.
 *
 * <p>Why a walker of our own rather than Jackson data binding: Jackson stops at the first bad property, and its
 * messages name Java types, not JSON paths. The schema is the records themselves (component name = JSON name,
 * component type = JSON type), read by reflection, so a field added to a record is understood here without a second
 * description to keep in step.
 *
 * <p>Where a value is wrong, the walker puts the default in its place and carries on, so the semantic checks of
 * {@link ConfigValidator} can still run over the rest of the file.
 */
final class TreeBinder {
    /** Values for the fields a list or map entry leaves out (a top-level part falls back to its default instead). */
    private static final Map<Class<?>, Object> ENTRY_DEFAULTS = Map.of(
            BackendConfig.class, BackendConfig.DEFAULTS,
            DemoBackendConfig.class, DemoBackendConfig.DEFAULTS,
            RouteConfig.class, RouteConfig.DEFAULTS,
            PoolConfig.class, PoolConfig.DEFAULTS,
            DiscoveryConfig.class, DiscoveryConfig.DEFAULTS,
            // a strategy object starts empty; withDefaults() later fills what its type uses
            StrategySpec.class, StrategySpec.bare(null));

    /** Fields without which an entry means nothing. */
    private static final Map<Class<?>, Set<String>> REQUIRED = Map.of(
            BackendConfig.class, Set.of("id", "url"),
            DemoBackendConfig.class, Set.of("id", "port"),
            RouteConfig.class, Set.of("pathPrefix", "pool"),
            DiscoveryConfig.class, Set.of("type"));

    private final List<ConfigProblem> problems;

    TreeBinder(List<ConfigProblem> problems) {
        this.problems = problems;
    }

    /** Binds {@code node} as a {@code type} found at {@code path}; {@code fallback} stands in for a wrong value. */
    @SuppressWarnings("unchecked")
    <T> T bind(JsonNode node, Class<T> type, T fallback, String path) {
        return (T) value(node, type, fallback, path);
    }

    private Object value(JsonNode node, Type type, Object fallback, String path) {
        Class<?> raw = raw(type);
        if (raw == int.class || raw == Integer.class) {
            if (node.isNull() && raw == Integer.class) {
                return null;
            }
            if (!node.isIntegralNumber()) {
                return wrongType(path, "must be an integer", node, fallback);
            }
            if (!node.canConvertToInt()) {
                return wrongType(path, "is out of range", node, fallback);
            }
            return node.intValue();
        }
        if (raw == long.class || raw == Long.class) {
            if (node.isNull() && raw == Long.class) {
                return null;
            }
            if (!node.isIntegralNumber()) {
                return wrongType(path, "must be an integer", node, fallback);
            }
            if (!node.canConvertToLong()) {
                return wrongType(path, "is out of range", node, fallback);
            }
            return node.longValue();
        }
        if (raw == double.class || raw == Double.class) {
            if (node.isNull() && raw == Double.class) {
                return null;
            }
            if (!node.isNumber()) {
                return wrongType(path, "must be a number", node, fallback);
            }
            double d = node.doubleValue();
            if (!Double.isFinite(d)) {
                return wrongType(path, "is out of range", node, fallback);
            }
            return d;
        }
        if (raw == boolean.class || raw == Boolean.class) {
            if (node.isNull() && raw == Boolean.class) {
                return null;
            }
            return node.isBoolean() ? node.booleanValue() : wrongType(path, "must be true or false", node, fallback);
        }
        if (raw == String.class) {
            if (node.isNull()) {
                return null; // whether null is allowed is the validator's call: it knows which fields are optional
            }
            return node.isTextual() ? node.textValue() : wrongType(path, "must be a string", node, fallback);
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
        if (raw.isRecord()) {
            return record(node, raw, fallback, path);
        }
        throw new IllegalStateException("no JSON mapping for " + type + " at " + path);
    }

    private Object list(JsonNode node, Type elementType, Object fallback, String path) {
        if (!node.isArray()) {
            return wrongType(path, "must be an array", node, fallback);
        }
        List<Object> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            Object v = entry(node.get(i), elementType, path + "[" + i + "]");
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    private Object map(JsonNode node, Type valueType, Object fallback, String path) {
        if (!node.isObject()) {
            return wrongType(path, "must be an object", node, fallback);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            Object v = entry(e.getValue(), valueType, ConfigPaths.child(path, e.getKey()));
            if (v != null) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    /**
     * A list element or map value. A record entry that is not an object becomes its entry defaults (a placeholder),
     * so the entries after it keep their index in the bound list and the validator's paths stay right; the loader
     * drops the validator's findings under a path the binder already reported. A wrong scalar entry is left out.
     */
    private Object entry(JsonNode node, Type type, String path) {
        Class<?> raw = raw(type);
        Object placeholder = ENTRY_DEFAULTS.get(raw);
        if (node.isNull()) {
            String what = raw.isRecord() || raw == Map.class ? "must be an object"
                    : raw == List.class ? "must be an array"
                    : raw == String.class ? "must be a string"
                    : raw == Boolean.class ? "must be true or false"
                    : raw == Double.class ? "must be a number" : "must be an integer";
            problems.add(new ConfigProblem(path, what, "null"));
            return placeholder;
        }
        return value(node, type, placeholder, path);
    }

    private Object record(JsonNode node, Class<?> type, Object fallback, String path) {
        if (!node.isObject()) {
            return wrongType(path, "must be an object", node, fallback);
        }
        RecordComponent[] components = type.getRecordComponents();
        Object defaults = ENTRY_DEFAULTS.getOrDefault(type, fallback);
        Set<String> known = Arrays.stream(components).map(RecordComponent::getName)
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!known.contains(e.getKey())) {
                problems.add(new ConfigProblem(ConfigPaths.child(path, e.getKey()), unknownField(e.getKey(), known),
                        ConfigPaths.json(e.getValue())));
            }
        }
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            types[i] = c.getType();
            Object dflt = defaults == null ? null : accessor(c, defaults);
            JsonNode child = node.get(c.getName());
            String childPath = ConfigPaths.child(path, c.getName());
            if (child == null) {
                if (REQUIRED.getOrDefault(type, Set.of()).contains(c.getName())) {
                    problems.add(new ConfigProblem(childPath, "required", "missing"));
                }
                args[i] = dflt;
            } else {
                args[i] = value(child, c.getGenericType(), dflt, childPath);
            }
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            return canonical.newInstance(args);
        } catch (InvocationTargetException e) {
            // a compact constructor refused the values; report it rather than crash
            problems.add(new ConfigProblem(path, "is not valid: " + e.getCause().getMessage(), ConfigPaths.json(node)));
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
        if (!node.isObject()) {
            return wrongType(path, "must be an object", node, fallback);
        }
        JsonNode typeNode = node.get("type");
        String type = null;
        if (typeNode == null) {
            problems.add(new ConfigProblem(ConfigPaths.child(path, "type"), "required", "missing"));
        } else {
            type = (String) value(typeNode, String.class, null, ConfigPaths.child(path, "type"));
        }
        StrategyDescriptor d = type == null ? null : Strategies.descriptor(type);
        Set<String> known = Strategies.fieldNames();
        Map<String, Object> options = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String name = e.getKey();
            if (name.equals("type")) {
                continue;
            }
            StrategyOption o = d != null && d.option(name) != null ? d.option(name) : Strategies.anyOption(name);
            String childPath = ConfigPaths.child(path, name);
            if (o == null) {
                problems.add(new ConfigProblem(childPath, unknownField(name, known), ConfigPaths.json(e.getValue())));
            } else if (!e.getValue().isNull()) {
                options.put(name, value(e.getValue(), o.kind().javaType(), null, childPath));
            }
        }
        return new StrategySpec(type, options);
    }

    /** {@code unknown field}, with the nearest known name when one is close (a typo), else the list of known names. */
    static String unknownField(String name, Set<String> known) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        if (lower.length() >= 3) {
            for (String k : known) {
                // a shortened name ("strip" for stripPrefix, "latency" for latencyMs) is a typo of the longer one
                if (k.toLowerCase(java.util.Locale.ROOT).startsWith(lower)) {
                    return "unknown field, did you mean " + k + "?";
                }
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = editDistance(name.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        // a guess: up to a third of the name's letters (max 3) mistyped still reads as a typo of that field
        int tolerance = Math.max(1, Math.min(3, name.length() / 3));
        if (best != null && bestDistance <= tolerance) {
            return "unknown field, did you mean " + best + "?";
        }
        return "unknown field, expected one of " + String.join(", ", known);
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private Object wrongType(String path, String message, JsonNode node, Object fallback) {
        problems.add(new ConfigProblem(path, message, ConfigPaths.json(node)));
        return fallback;
    }

    private static Object accessor(RecordComponent c, Object instance) {
        try {
            return c.getAccessor().invoke(instance);
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
