package dev.fulcrum.admin;

import dev.fulcrum.rules.Range;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import dev.fulcrum.engine.EngineException;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** JSON for the admin API, with request-body checks whose messages name the field and the value. */
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
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '([^']*)'");

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

    /** Parses a body that must be a JSON object whose fields are all in {@code allowed}. */
    public static JsonNode object(String body, Set<String> allowed) {
        if (body == null || body.isBlank()) {
            throw new EngineException(400, "body: must be a JSON object (got: empty body)");
        }
        JsonNode n;
        try {
            n = MAPPER.readTree(body);
        } catch (Exception e) {
            Matcher dup = DUPLICATE.matcher(String.valueOf(e.getMessage()));
            if (dup.find()) {
                throw new EngineException(400, dup.group(1) + ": given twice (got: " + abbreviate(body) + ")");
            }
            throw new EngineException(400, "body: not valid JSON (got: " + abbreviate(body) + ")");
        }
        if (n == null || !n.isObject()) {
            throw new EngineException(400, "body: must be a JSON object (got: " + abbreviate(body) + ")");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new EngineException(400, f + ": unknown field (got: " + n.get(f) + ")");
            }
        }
        return n;
    }

    public static String requiredText(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new EngineException(400, field + ": required (got: null)");
        }
        if (!v.isTextual()) {
            throw new EngineException(400, field + ": must be a string (got: " + v + ")");
        }
        return v.asText();
    }

    public static String optionalText(JsonNode n, String field, String dflt) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual()) {
            throw new EngineException(400, field + ": must be a string (got: " + v + ")");
        }
        return v.asText();
    }

    /** An optional whole number within one of the rulebook's ranges. */
    public static Integer optionalInt(JsonNode n, String field, Range range) {
        return optionalInt(n, field, (int) range.min(), (int) range.max());
    }

    public static Integer optionalInt(JsonNode n, String field, int min, int max) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber() && !v.canConvertToInt()) { // 99999999999999999999 is a whole number, out of range
            throw new EngineException(400, field + ": must be between " + min + " and " + max + " (got: " + v + ")");
        }
        if (v.getNodeType() != JsonNodeType.NUMBER || !v.canConvertToInt() || v.isFloatingPointNumber() && v.asDouble() != Math.rint(v.asDouble())) {
            throw new EngineException(400, field + ": must be an integer (got: " + v + ")");
        }
        int i = v.asInt();
        if (i < min || i > max) {
            throw new EngineException(400, field + ": must be between " + min + " and " + max + " (got: " + i + ")");
        }
        return i;
    }

    public static Double optionalDouble(JsonNode n, String field, double min, double max) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber()) {
            throw new EngineException(400, field + ": must be a number (got: " + v + ")");
        }
        double d = v.asDouble();
        if (d < min || d > max) {
            throw new EngineException(400, field + ": must be between " + fmt(min) + " and " + fmt(max) + " (got: " + v + ")");
        }
        return d;
    }

    public static Boolean optionalBoolean(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isBoolean()) {
            throw new EngineException(400, field + ": must be true or false (got: " + v + ")");
        }
        return v.asBoolean();
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static String abbreviate(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
