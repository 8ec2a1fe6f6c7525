package dev.fulcrum.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.rules.Range;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one rulebook for JSON values Fulcrum is given: a config file, an admin API request body and a lesson file read
 * their values here, so the same value gets the same verdict and the same message wherever it is written. A wrong type
 * is refused, never converted, and each problem is collected as a {@link ConfigProblem} ({@code <path>: <message>
 * (got: <value as written>)}) rather than stopping the read:
 *
 * <table>
 *   <caption>each kind, what it takes and what it refuses</caption>
 *   <tr><th>kind</th><th>takes</th><th>refuses with</th></tr>
 *   <tr><td>integer, long</td><td>a JSON number written without a fraction or exponent</td>
 *       <td>{@code must be an integer} ({@code 5.0}, {@code "5"}, {@code true}); {@code is out of range} (beyond the
 *       Java int or long)</td></tr>
 *   <tr><td>number</td><td>any JSON number</td><td>{@code must be a number}; {@code is out of range} ({@code 1e400})</td></tr>
 *   <tr><td>boolean</td><td>{@code true}, {@code false}</td><td>{@code must be true or false}</td></tr>
 *   <tr><td>string</td><td>a JSON string</td><td>{@code must be a string}</td></tr>
 *   <tr><td>one of</td><td>one of the given strings</td><td>{@code must be a string}; {@code must be one of a, b, c}</td></tr>
 *   <tr><td>list</td><td>a JSON array, each element of its own kind at {@code path[i]}</td><td>{@code must be an array}</td></tr>
 *   <tr><td>map</td><td>a JSON object, each value of its own kind at {@code path.key}</td><td>{@code must be an object}</td></tr>
 *   <tr><td>object</td><td>a JSON object of known fields</td><td>{@code must be an object}; {@code unknown field, did
 *       you mean x?} or {@code unknown field, expected one of ...} at the field; {@code required (got: missing)}</td></tr>
 *   <tr><td>a field given twice</td><td></td><td>{@code invalid JSON at line L, column C: field given twice}, from the
 *       strict parse ({@link #duplicate})</td></tr>
 * </table>
 *
 * <p>JSON null is a value of no kind: a kind's reader refuses it ({@code must be an integer (got: null)}). A record
 * component that may be left unset (a boxed number or boolean, a string) takes null as unset, and whether unset is
 * allowed is then the caller's check, as {@link ConfigValidator} does for the config.
 *
 * <p>Records are bound by their components ({@link #bind}): component name = JSON name (unless a {@link Shape} names it
 * otherwise), component type = JSON kind, so the config's records, the admin API's bodies and a lesson's actions are
 * read by the same walker ({@link TreeBinder}). A meaning check after binding reports through {@link #refuse}, which
 * drops a finding at, under or around a path whose value already had the wrong shape (it would only repeat it).
 *
 * <p>Example: {@code new JsonBinder(problems).integer(node("5.0"), "backends[1].weight")} returns null and adds
 * {@code backends[1].weight: must be an integer (got: 5.0)}; an admin body names the field alone ({@code weight}).
 */
public final class JsonBinder {
    static final String MUST_BE_INTEGER = "must be an integer";
    static final String MUST_BE_NUMBER = "must be a number";
    static final String MUST_BE_BOOLEAN = "must be true or false";
    static final String MUST_BE_STRING = "must be a string";
    static final String MUST_BE_ARRAY = "must be an array";
    static final String MUST_BE_OBJECT = "must be an object";
    static final String OUT_OF_RANGE = "is out of range";

    /**
     * How the records of a package other than config bind: the values of the fields a JSON object leaves out (null
     * for none: zero, false or null), the fields it must write, and JSON names that differ from a component's name
     * (a lesson's {@code {"drain": "demo-a"}} fills the component {@code backend}).
     */
    public record Shape<R>(Class<R> type, R defaults, Set<String> required, Map<String, String> names) {
        public Shape {
            required = Set.copyOf(required);
            names = Map.copyOf(names);
        }

        public static <R> Shape<R> of(Class<R> type, R defaults, String... required) {
            return new Shape<>(type, defaults, new LinkedHashSet<>(List.of(required)), Map.of());
        }

        /** The same shape with {@code component} written as {@code jsonName}. */
        public Shape<R> named(String component, String jsonName) {
            Map<String, String> n = new LinkedHashMap<>(names);
            n.put(component, jsonName);
            return new Shape<>(type, defaults, required, n);
        }

        String jsonName(String component) {
            return names.getOrDefault(component, component);
        }
    }

    private final List<ConfigProblem> problems;
    private final Map<Class<?>, Shape<?>> shapes = new LinkedHashMap<>();
    /** The paths of the problems of shape (a wrong kind, unknown, missing) found so far. */
    private final List<String> wrongShape = new ArrayList<>();

    /** A binder adding its problems to {@code problems}, binding records of other packages by {@code shapes}. */
    public JsonBinder(List<ConfigProblem> problems, Shape<?>... shapes) {
        this.problems = problems;
        for (Shape<?> s : shapes) {
            this.shapes.put(s.type(), s);
        }
    }

    Shape<?> shape(Class<?> type) {
        return shapes.get(type);
    }

    // ------------------------------------------------------------------ records

    /**
     * Binds an object to the record {@code type}: unknown fields, missing required fields and every component of the
     * wrong kind are problems; a wrong component takes its default so the rest is still read. Null when {@code node}
     * is no object.
     */
    public <R> R bind(JsonNode node, Class<R> type, String path) {
        return new TreeBinder(this).bind(node, type, null, path);
    }

    // ------------------------------------------------------------------ kinds

    /** A whole number that fits an int, or null after the verdict. */
    public Integer integer(JsonNode v, String path) {
        if (!v.isIntegralNumber()) {
            return wrong(path, MUST_BE_INTEGER, v);
        }
        if (!v.canConvertToInt()) {
            return wrong(path, OUT_OF_RANGE, v);
        }
        return v.intValue();
    }

    /** A whole number that fits a long, or null after the verdict. */
    public Long longInteger(JsonNode v, String path) {
        if (!v.isIntegralNumber()) {
            return wrong(path, MUST_BE_INTEGER, v);
        }
        if (!v.canConvertToLong()) {
            return wrong(path, OUT_OF_RANGE, v);
        }
        return v.longValue();
    }

    /** A finite number, or null after the verdict. */
    public Double number(JsonNode v, String path) {
        if (!v.isNumber()) {
            return wrong(path, MUST_BE_NUMBER, v);
        }
        double d = v.doubleValue();
        if (!Double.isFinite(d)) {
            return wrong(path, OUT_OF_RANGE, v);
        }
        return d;
    }

    public Boolean bool(JsonNode v, String path) {
        if (!v.isBoolean()) {
            return wrong(path, MUST_BE_BOOLEAN, v);
        }
        return v.booleanValue();
    }

    public String string(JsonNode v, String path) {
        if (!v.isTextual()) {
            return wrong(path, MUST_BE_STRING, v);
        }
        return v.textValue();
    }

    /** A string among {@code allowed}, or null after the verdict. */
    public String oneOf(JsonNode v, String path, List<String> allowed) {
        String s = string(v, path);
        return s == null || oneOf(s, path, allowed) ? s : null;
    }

    /** Whether {@code value} (already a string) is among {@code allowed}; refused with the list when it is not. */
    public boolean oneOf(String value, String path, List<String> allowed) {
        if (value != null && allowed.contains(value)) {
            return true;
        }
        refuse(path, "must be one of " + String.join(", ", allowed), value);
        return false;
    }

    /** A whole number in {@code [min, max]}, or null after the verdict ({@code must be between min and max}). */
    public Long integerIn(JsonNode v, String path, long min, long max) {
        Long x = longInteger(v, path);
        if (x == null) {
            return null;
        }
        return refuse(path, new Range(min, max).problem(x), x) ? null : x;
    }

    /** Reads one value of a list or map at its path: the value, or null after its verdict. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(JsonNode v, String path);
    }

    /**
     * An array, each element read by {@code element} at {@code path[i]}; an element refused is left out. Null when
     * {@code v} is no array.
     */
    public <T> List<T> list(JsonNode v, String path, Reader<T> element) {
        if (!array(v, path)) {
            return null;
        }
        List<T> out = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            T t = element.read(v.get(i), index(path, i));
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * An object of any names, each value read by {@code value} at {@code path.name}; a value refused is left out.
     * Null when {@code v} is no object.
     */
    public <T> Map<String, T> map(JsonNode v, String path, Reader<T> value) {
        if (!object(v, path)) {
            return null;
        }
        Map<String, T> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            T t = value.read(e.getValue(), child(path, e.getKey()));
            if (t != null) {
                out.put(e.getKey(), t);
            }
        }
        return out;
    }

    /** Whether {@code v} is an array; refused when it is not. */
    public boolean array(JsonNode v, String path) {
        if (!v.isArray()) {
            wrong(path, MUST_BE_ARRAY, v);
        }
        return v.isArray();
    }

    /** Whether {@code v} is an object; refused when it is not. */
    public boolean object(JsonNode v, String path) {
        if (!v.isObject()) {
            wrong(path, MUST_BE_OBJECT, v);
        }
        return v.isObject();
    }

    /**
     * Whether {@code v} is an object, reporting each field not in {@code known} and each of {@code required} left
     * out. The fields' values are the caller's to read.
     */
    public boolean object(JsonNode v, String path, Collection<String> known, String... required) {
        if (!object(v, path)) {
            return false;
        }
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (!known.contains(e.getKey())) {
                unknown(child(path, e.getKey()), e.getKey(), known, e.getValue());
            }
        }
        for (String r : required) {
            if (!v.has(r)) {
                missing(child(path, r));
            }
        }
        return true;
    }

    void unknown(String path, String name, Collection<String> known, JsonNode value) {
        wrong(path, unknownField(name, known), value);
    }

    void missing(String path) {
        wrongShape.add(path);
        problems.add(new ConfigProblem(path, "required", "missing"));
    }

    /** Records a problem of shape at {@code path}, the value shown as written; null, for the caller to return. */
    <T> T wrong(String path, String message, JsonNode value) {
        wrongShape.add(path);
        problems.add(new ConfigProblem(path, message, ConfigPaths.json(value)));
        return null;
    }

    // ------------------------------------------------------------------ meaning

    /**
     * Records a problem of meaning ({@code problem}, e.g. {@code must be between 0 and 1000}; null for none) at
     * {@code path} with the value as the program read it, unless a problem of shape at, under or around that path
     * was already reported. Whether a problem was given.
     */
    public boolean refuse(String path, String problem, Object value) {
        if (problem == null) {
            return false;
        }
        if (wrongShape.stream().noneMatch(w -> covers(w, path))) {
            problems.add(new ConfigProblem(path, problem, ConfigPaths.plain(value)));
        }
        return true;
    }

    /**
     * Whether a finding at {@code found} only repeats a problem of shape at {@code reported}: the same place, inside
     * it (the placeholder that replaced a wrong entry), or around it (a map that lost a wrong value).
     */
    static boolean covers(String reported, String found) {
        return within(found, reported) || within(reported, found);
    }

    private static boolean within(String inner, String outer) {
        return inner.equals(outer) || inner.startsWith(outer + ".") || inner.startsWith(outer + "[");
    }

    // ------------------------------------------------------------------ paths and messages

    /** {@code parent.name}; a bare {@code name} at the top ({@code $} or empty parent). */
    public static String child(String parent, String name) {
        return ConfigPaths.child(parent, name);
    }

    /** {@code parent[i]}. */
    public static String index(String parent, int i) {
        return ConfigPaths.index(parent, i);
    }

    /**
     * The verdict on a field given twice, found by a strict parse of {@code text} ({@code
     * StreamReadFeature.STRICT_DUPLICATE_DETECTION}), as a config file's: {@code weight: invalid JSON at line 1,
     * column 20: field given twice (got: "weight")}. Null when {@code e} is another syntax error.
     */
    public static ConfigProblem duplicate(JsonProcessingException e, String text) {
        return String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field")
                ? JsonSyntax.problem(e, text, ConfigProblem.ROOT) : null;
    }

    /** {@code unknown field}, with the nearest known name when one is close (a typo), else the list of known names. */
    public static String unknownField(String name, Collection<String> known) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.length() >= 3) {
            for (String k : known) {
                // a shortened name ("strip" for stripPrefix, "latency" for latencyMs) is a typo of the longer one
                if (k.toLowerCase(Locale.ROOT).startsWith(lower)) {
                    return "unknown field, did you mean " + k + "?";
                }
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = editDistance(lower, k.toLowerCase(Locale.ROOT));
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
}
