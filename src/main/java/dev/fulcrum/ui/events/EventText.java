package dev.fulcrum.ui.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.admin.Json;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.ui.strategy.StrategyForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Events table's From and To in words. The engine's events carry what the API sends ({@code docs/REFERENCE.md
 * §4}): a demo fault change is the JSON the operator sent, a strategy change the type names. Example: a {@code demo}
 * event with to {@code {"latencyMs":200,"down":true}} reads From "faults changed", To "latency 200 ms, down";
 * a missing value reads "–", never an empty cell.
 */
final class EventText {
    static final String NONE = "\u2013";

    private EventText() {
    }

    static String from(EngineEvent e) {
        if ("demo".equals(e.type()) && blank(e.from())) {
            return "faults changed";
        }
        return words(e.type(), e.from());
    }

    static String to(EngineEvent e) {
        if ("demo".equals(e.type()) && e.to() != null && e.to().trim().startsWith("{")) {
            return demoFaults(e.to());
        }
        return words(e.type(), e.to());
    }

    private static String words(String type, String value) {
        if (blank(value)) {
            return NONE;
        }
        if ("strategy".equals(type) && StrategyForm.NAMES.containsKey(value)) {
            return StrategyForm.NAMES.get(value);
        }
        return value;
    }

    /** {@code {"latencyMs":200,"errorRate":0.1,"down":false}} → "latency 200 ms, errors 10%, up". */
    static String demoFaults(String json) {
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(json);
        } catch (java.io.IOException | RuntimeException notJson) {
            return json;
        }
        if (n == null || !n.isObject()) {
            return json;
        }
        List<String> parts = new ArrayList<>();
        if (n.hasNonNull("latencyMs")) {
            parts.add(String.format(Locale.ROOT, "latency %.0f ms", n.get("latencyMs").asDouble()));
        }
        if (n.hasNonNull("errorRate")) {
            parts.add(String.format(Locale.ROOT, "errors %.0f%%", n.get("errorRate").asDouble() * 100));
        }
        if (n.hasNonNull("down")) {
            parts.add(n.get("down").asBoolean() ? "down" : "up");
        }
        return parts.isEmpty() ? "no change" : String.join(", ", parts);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
