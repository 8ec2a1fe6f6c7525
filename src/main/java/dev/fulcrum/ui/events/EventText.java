package dev.fulcrum.ui.events;

import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyDescriptor;
import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Events table's From and To in words. The engine's events carry what the API sends ({@code docs/REFERENCE.md
 * §4}): a demo fault change is the JSON the operator sent, a strategy change the type names. Example: a {@code demo}
 * event with to {@code {"latencyMs":200,"down":true}} reads From "faults changed", To "latency 200 ms, down";
 * a missing value reads "–", never an empty cell. A {@code plugin-failed} event reads From the plugin strategy's title
 * and To why it failed, e.g. "cheapest first" / "its pick threw IllegalStateException: no cost"; its pool's fallback
 * strategy picks from then on. A status word (a backend's state, a breaker's) and the engine's own words for a change
 * ({@code added}, {@code applied}, panic {@code on}) read in the window's language; the values themselves, a
 * refusal's reason and a strategy's title stay as the engine gives them.
 */
public final class EventText {
    static final String NONE = "\u2013";

    private EventText() {
    }

    static String from(EngineEvent e) {
        if ("demo".equals(e.type()) && blank(e.from())) {
            return Texts.t("events.demo.changed");
        }
        if ("split".equals(e.type()) || "guard".equals(e.type())) {
            return routePrefix(e) + (blank(e.from()) ? NONE : split(e.from()));
        }
        return words(e.type(), e.from());
    }

    static String to(EngineEvent e) {
        if ("demo".equals(e.type()) && e.to() != null && e.to().trim().startsWith("{")) {
            return demoFaults(e.to());
        }
        if ("split".equals(e.type())) {
            return blank(e.to()) ? NONE : split(e.to());
        }
        if ("guard".equals(e.type())) {
            return blank(e.to()) ? NONE : Texts.t("events.guard.rolledback", e.to());
        }
        return words(e.type(), e.to());
    }

    private static String routePrefix(EngineEvent e) {
        return e.route() == null ? "" : Texts.t("events.route", Integer.toString(e.route())) + ": ";
    }

    /**
     * A split's weights ({@code stable=95 canary=5}) as shares: "stable 95%, canary 5%" when they add up to 100,
     * "stable 3, canary 1 (75%, 25%)" otherwise; a value that is not such a list stays as it is.
     */
    static String split(String weights) {
        List<String> pools = new ArrayList<>();
        List<Integer> w = new ArrayList<>();
        for (String part : weights.trim().split("\\s+")) {
            int eq = part.lastIndexOf('=');
            if (eq <= 0) {
                return weights;
            }
            try {
                w.add(Integer.parseInt(part.substring(eq + 1)));
            } catch (NumberFormatException notAWeight) {
                return weights;
            }
            pools.add(part.substring(0, eq));
        }
        int total = w.stream().mapToInt(Integer::intValue).sum();
        List<String> out = new ArrayList<>();
        List<String> shares = new ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            out.add(pools.get(i) + " " + w.get(i) + (total == 100 ? "%" : ""));
            shares.add(total == 0 ? "0%" : String.format(Locale.ROOT, "%.0f%%", 100.0 * w.get(i) / total));
        }
        return String.join(", ", out) + (total == 100 ? "" : " (" + String.join(", ", shares) + ")");
    }

    /**
     * A From or To of an event of {@code type} as the window shows it: a state or breaker word, a membership or panic
     * change in words, a strategy's title; other values (weights, the engine's messages) as they are.
     */
    public static String words(String type, String value) {
        if (blank(value)) {
            return NONE;
        }
        StrategyDescriptor strategy = "strategy".equals(type) || "plugin-failed".equals(type)
                ? Strategies.descriptor(value) : null;
        if (strategy != null) {
            return strategy.title();
        }
        return switch (type) {
            case "breaker" -> Texts.word("breaker", value);
            case "health" -> stateOrHealth(value);
            case "drain" -> Texts.word("state", value);
            case "membership", "panic" -> Texts.word("events.value", value);
            case "config" -> value.startsWith(REJECTED)
                    ? Texts.t("events.config.rejected", value.substring(REJECTED.length()))
                    : Texts.word("events.value", value);
            default -> value;
        };
    }

    /** How a refused config's event begins ({@code rejected: PROBLEMS}); the problems stay the engine's. */
    private static final String REJECTED = "rejected: ";

    /** A health change: a backend's state (UP, EJECTED...) or, from an HAProxy fleet, its health (UNKNOWN...). */
    private static String stateOrHealth(String value) {
        String state = Texts.word("state", value);
        return state.equals(value) ? Texts.word("health", value) : state;
    }

    /** One {@code "name": value} of a flat JSON object whose values are numbers or booleans. */
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*([-+.\\w]+)");

    /**
     * {@code {"latencyMs":200,"errorRate":0.1,"down":false}} → "latency 200 ms, errors 10%, up". The demo API's body
     * is flat (docs/REFERENCE.md §4, {@code PUT /api/demo/{id}}), so its fields are read as they stand.
     */
    static String demoFaults(String json) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            fields.put(m.group(1), m.group(2));
        }
        List<String> parts = new ArrayList<>();
        try {
            if (fields.containsKey("latencyMs") && !"null".equals(fields.get("latencyMs"))) {
                parts.add(Texts.t("events.demo.latency",
                        String.format(Locale.ROOT, "%.0f", Double.parseDouble(fields.get("latencyMs")))));
            }
            if (fields.containsKey("errorRate") && !"null".equals(fields.get("errorRate"))) {
                parts.add(Texts.t("events.demo.errors",
                        String.format(Locale.ROOT, "%.0f", Double.parseDouble(fields.get("errorRate")) * 100)));
            }
        } catch (NumberFormatException notANumber) {
            return json;
        }
        if ("true".equals(fields.get("down"))) {
            parts.add(Texts.t("events.demo.down"));
        } else if ("false".equals(fields.get("down"))) {
            parts.add(Texts.t("events.demo.up"));
        }
        return parts.isEmpty() ? Texts.t("events.demo.nochange") : String.join(Texts.t("events.list.separator"), parts);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
