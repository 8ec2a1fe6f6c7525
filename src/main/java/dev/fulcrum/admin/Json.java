package dev.fulcrum.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.JsonBinder;
import dev.fulcrum.engine.EngineException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * JSON for the admin API: writing answers, and reading request bodies, which must be one JSON object with no field
 * given twice. A body's field values are read by the config's rules ({@link JsonBinder}), so a value the config file
 * refuses is refused here with the same message, the field named bare: {@code weight: must be an integer (got: 5.0)}.
 */
public final class Json {
    /**
     * Strict about request bodies: a repeated field or text after the object is an error, not silently
     * resolved (which of two {@code "weight"}s did the operator mean?).
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** For reading another engine's answers: a newer server may add fields, which are ignored. */
    public static final ObjectMapper LENIENT = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Json() {
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses a body that must be a JSON object. A field given twice is refused as in a config file ({@code weight:
     * invalid JSON at line 1, column 20: field given twice (got: "weight")}); any other syntax error, or text after
     * the object, is {@code body: not valid JSON}.
     */
    public static JsonNode object(String body) {
        if (body == null || body.isBlank()) {
            throw new EngineException(400, "body: must be a JSON object (got: empty body)");
        }
        JsonNode n = value(body);
        if (n == null || !n.isObject()) {
            throw new EngineException(400, "body: must be a JSON object (got: " + abbreviate(body) + ")");
        }
        return n;
    }

    /**
     * Parses a body of any one JSON value (a list, for {@code PUT /api/routes/{index}/split}), as strictly as
     * {@link #object(String)}: a field given twice or text after the value is refused in its words; an empty body is
     * {@code body: must be JSON (got: empty body)}.
     */
    public static JsonNode value(String body) {
        if (body == null || body.isBlank()) {
            throw new EngineException(400, "body: must be JSON (got: empty body)");
        }
        try {
            return MAPPER.readTree(body);
        } catch (Exception e) {
            ConfigProblem duplicate = e instanceof JsonProcessingException j ? JsonBinder.duplicate(j, body) : null;
            if (duplicate != null) {
                throw new ConfigException(List.of(duplicate));
            }
            throw new EngineException(400, "body: not valid JSON (got: " + abbreviate(body) + ")");
        }
    }

    /**
     * As {@link #object(String)}, each field one of {@code allowed}: an unknown field is refused with the binder's
     * message, the known names listed in {@code allowed}'s order when it has one, else alphabetically.
     */
    public static JsonNode object(String body, Set<String> allowed) {
        JsonNode n = object(body);
        List<ConfigProblem> problems = new ArrayList<>();
        Collection<String> known = allowed instanceof LinkedHashSet || allowed instanceof SortedSet ? allowed
                : new TreeSet<>(allowed);
        new JsonBinder(problems).object(n, ConfigProblem.ROOT, known);
        throwIfAny(problems);
        return n;
    }

    /**
     * Binds a body object to {@code shape}'s record by the config's rules ({@link JsonBinder}): fields are named
     * bare ({@code weight: must be an integer (got: 5.0)}), and every problem is one 400 listing them all.
     * {@code nested} are the shapes of the records inside it.
     */
    public static <R> R bind(JsonNode body, JsonBinder.Shape<R> shape, JsonBinder.Shape<?>... nested) {
        List<ConfigProblem> problems = new ArrayList<>();
        JsonBinder.Shape<?>[] shapes = new JsonBinder.Shape<?>[nested.length + 1];
        shapes[0] = shape;
        System.arraycopy(nested, 0, shapes, 1, nested.length);
        R value = new JsonBinder(problems, shapes).bind(body, shape.type(), ConfigProblem.ROOT);
        throwIfAny(problems);
        return value;
    }

    /** The problems as one 400, {@code Validation.message}'s: each {@code <field>: <message> (got: <value>)}. */
    private static void throwIfAny(List<ConfigProblem> problems) {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    static String abbreviate(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
