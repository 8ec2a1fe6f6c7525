package dev.fulcrum.replay;

import dev.fulcrum.engine.strategy.StrategyDescriptor;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.rules.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --strategies} list: strategies separated by commas outside parentheses and quotes (a formula has commas
 * of its own), each {@code name} or {@code name:setting=value[:setting=value...]}, e.g.
 * {@code round-robin,consistent-hash:key=header:X-User:virtualNodes=200}. A value runs to the next {@code :} that
 * starts another {@code setting=}, so {@code key=header:X-User} keeps its colon. A value is read as the strategy's
 * descriptor says its setting is (a whole number, a number, text); {@code score:FORMULA} and {@code score:@FILE} give
 * the score strategy its {@code score} setting: everything after {@code score:} up to the next comma outside
 * parentheses, or the text of FILE. Every strategy is found by name in the registry ({@link Strategies}), so a
 * strategy from a plugin is named as a built-in is, and checked by {@link Strategies#violations}: a problem reads
 * {@code --strategies: consistent-hash: virtualNodes: must be between 1 and 10000 (got: 0)}.
 */
public final class StrategyList {
    /** The strategy whose one setting, a formula, is written after its name. */
    public static final String SCORE = "score";

    private StrategyList() {
    }

    /**
     * @throws IllegalArgumentException with every problem, each on its own line, each starting {@code --strategies: }
     */
    public static List<StrategySpec> parse(String list) {
        List<String> problems = new ArrayList<>();
        List<StrategySpec> out = new ArrayList<>();
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("--strategies: at least one strategy required (got: " + list + ")");
        }
        for (String item : split(list)) {
            String s = item.trim();
            if (s.isEmpty()) {
                problems.add("--strategies: an empty name between two commas (got: " + list + ")");
                continue;
            }
            int colon = s.indexOf(':');
            String name = colon < 0 ? s : s.substring(0, colon);
            String rest = colon < 0 ? "" : s.substring(colon + 1);
            StrategyDescriptor d = Strategies.descriptor(name);
            if (d == null) {
                problems.add("--strategies: unknown strategy " + name + ", one of "
                        + String.join(", ", Strategies.names()));
                continue;
            }
            StrategySpec spec = StrategySpec.bare(name);
            try {
                spec = name.equals(SCORE) ? score(spec, rest) : settings(spec, rest);
            } catch (IllegalArgumentException e) {
                problems.add("--strategies: " + name + ": " + e.getMessage());
                continue;
            }
            for (Violation v : Strategies.violations(spec.withDefaults())) {
                problems.add("--strategies: " + name + ": " + v.describe());
            }
            out.add(spec.withDefaults());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return out;
    }

    /** The items of a list: split at commas outside parentheses, brackets and quotes. */
    static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '(' || c == '[') {
                depth++;
            } else if ((c == ')' || c == ']') && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(list.substring(start, i));
                start = i + 1;
            }
        }
        out.add(list.substring(start));
        return out;
    }

    private static StrategySpec score(StrategySpec spec, String rest) {
        String formula = rest.trim();
        if (formula.startsWith("@")) {
            Path file = Path.of(formula.substring(1));
            try {
                formula = Files.readString(file, StandardCharsets.UTF_8).trim();
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the formula's file " + file + " (" + e + ")");
            }
        }
        if (formula.isEmpty()) {
            throw new IllegalArgumentException("a formula required after score: (got: nothing)");
        }
        return spec.with(SCORE, formula);
    }

    private static StrategySpec settings(StrategySpec spec, String rest) {
        if (rest.isEmpty()) {
            return spec;
        }
        List<String> parts = new ArrayList<>();
        for (String p : rest.split(":", -1)) {
            // a part without '=' continues the value before it: key=header:X-User
            if (!p.contains("=") && !parts.isEmpty()) {
                parts.set(parts.size() - 1, parts.get(parts.size() - 1) + ":" + p);
            } else {
                parts.add(p);
            }
        }
        for (String p : parts) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("a setting is name=value (got: " + p + ")");
            }
            String setting = p.substring(0, eq).trim();
            String value = p.substring(eq + 1).trim();
            if (spec.option(setting) != null) {
                throw new IllegalArgumentException(setting + ": given twice (got: " + value + ")");
            }
            spec = spec.with(setting, value(spec.type(), setting, value));
        }
        return spec;
    }

    /** The text as the setting's kind, or the text itself when it is not one (violations then names it). */
    private static Object value(String type, String setting, String text) {
        StrategyOption o = Strategies.option(type, setting);
        if (o == null) {
            return text;
        }
        try {
            switch (o.kind()) {
                case INTEGER:
                    return Integer.valueOf(text);
                case LONG:
                    return Long.valueOf(text);
                case NUMBER:
                    return Double.valueOf(text);
                default:
                    return text;
            }
        } catch (NumberFormatException e) {
            return text;
        }
    }
}
