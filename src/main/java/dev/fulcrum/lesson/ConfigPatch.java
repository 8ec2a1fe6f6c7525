package dev.fulcrum.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * A lesson's {@code {"config": {...}}} action: a JSON merge patch (RFC 7386) over the running config. An object merges
 * field by field, {@code null} removes a field, anything else (an array too) replaces it. Example: {@code
 * {"circuitBreaker": {"openMs": 1500}}} changes the breaker's open wait and keeps the breaker's other settings.
 */
final class ConfigPatch {
    private ConfigPatch() {
    }

    /** {@code target} with {@code patch} merged in; {@code target} is changed in place where it is an object. */
    static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode out = target != null && target.isObject() ? (ObjectNode) target
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getValue().isNull()) {
                out.remove(f.getKey());
            } else {
                out.set(f.getKey(), merge(out.get(f.getKey()), f.getValue()));
            }
        }
        return out;
    }
}
