package dev.fulcrum.ui.strategy;

import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyDescriptor;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Strategy form's words and fields, all read from each strategy's {@link StrategyDescriptor}: its title, its
 * sentence, the settings it takes, how they read, and how the form's texts become the strategy object
 * {@code setStrategy} expects. The descriptor's texts are English (the admin API and the command line print them);
 * the window shows them in its language from the bundles' {@code strategy.TYPE.title}, {@code strategy.TYPE.sentence}
 * and {@code strategy.TYPE.SETTING.label}, {@code .help} and {@code .phrase}, and a strategy the bundles do not know
 * (a plugin's) in its descriptor's words.
 */
public final class StrategyForm {
    private StrategyForm() {
    }

    /** Each strategy's one sentence, by name, in the window's language. */
    public static final Map<String, String> EXPLANATIONS =
            byName(d -> localized("strategy." + d.name() + ".sentence", d.sentence()));

    /** What a person calls each strategy (the config's names are for files and the API), in the window's language. */
    public static final Map<String, String> NAMES = byName(d -> localized("strategy." + d.name() + ".title", d.title()));

    /** Keys offered in the form's key box (any other header, cookie or query name may be typed). */
    public static final List<String> KEYS = List.of("ip", "path", "header:X-User", "cookie:session", "query:user");

    /**
     * A read-only map by strategy name that reads the registry each time it is read, so a plugin's strategy
     * (registered at start-up, docs/PLUGINS.md) is in it whenever this class was first used.
     */
    private static Map<String, String> byName(java.util.function.Function<StrategyDescriptor, String> f) {
        return new java.util.AbstractMap<>() {
            @Override
            public Set<Map.Entry<String, String>> entrySet() {
                Map<String, String> m = new LinkedHashMap<>();
                Strategies.all().forEach(d -> m.put(d.name(), f.apply(d)));
                return java.util.Collections.unmodifiableMap(m).entrySet();
            }

            @Override
            public String get(Object name) {
                StrategyDescriptor d = name instanceof String s ? Strategies.descriptor(s) : null;
                return d == null ? null : f.apply(d);
            }

            @Override
            public boolean containsKey(Object name) {
                return name instanceof String s && Strategies.descriptor(s) != null;
            }
        };
    }

    /** The bundle's text of {@code key}, or {@code english} (a descriptor's own words) when no bundle has it. */
    static String localized(String key, String english) {
        String text = Texts.t(key);
        return text.equals(key) ? english : text;
    }

    /** A setting's label beside its field, as {@code type} names it. */
    public static String label(String type, StrategyOption o) {
        return localized("strategy." + type + "." + o.name() + ".label", o.label());
    }

    /** The few words after a setting's field, as {@code type} explains it. */
    public static String help(String type, StrategyOption o) {
        return localized("strategy." + type + "." + o.name() + ".help", o.hint());
    }

    /** A setting with its value in words, {@code 160 virtual nodes per backend}. */
    static String phrase(String type, StrategyOption o, Object value) {
        String key = "strategy." + type + "." + o.name() + ".phrase";
        return Texts.t(key).equals(key) ? String.format(Locale.ROOT, o.phrase(), text(value))
                : Texts.t(key, text(value));
    }

    /** The settings {@code type} takes, in its descriptor's order (none for an unknown type). */
    public static List<StrategyOption> optionsOf(String type) {
        StrategyDescriptor d = type == null ? null : Strategies.descriptor(type);
        return d == null ? List.of() : d.options();
    }

    /** The names of the settings {@code type} takes. */
    public static List<String> options(String type) {
        return optionsOf(type).stream().map(StrategyOption::name).toList();
    }

    /**
     * A strategy object in words, its settings by what they do, each config field named once where a person would
     * look it up: {@code {type=consistent-hash, key=path, virtualNodes=160, balanceFactor=1.25}} reads "consistent
     * hashing on the path, 160 virtual nodes per backend, bounded loads at 1.25x the average (balanceFactor=1.25)".
     */
    public static String describe(Map<String, Object> strategy) {
        if (strategy == null || strategy.get("type") == null) {
            return Texts.t("strategy.none");
        }
        String type = strategy.get("type").toString();
        String name = NAMES.getOrDefault(type, type);
        List<String> parts = new ArrayList<>();
        for (StrategyOption o : optionsOf(type)) {
            Object v = strategy.get(o.name());
            if (v == null) {
                continue;
            }
            if (o.kind() == StrategyOption.Kind.HASH_KEY) {
                name = Texts.t("strategy.describe.key", name, keyText(v.toString()));
            } else if (!(v instanceof Map<?, ?> m) || !m.isEmpty()) {
                parts.add(phrase(type, o, v));
            }
        }
        parts.add(0, name);
        return String.join(Texts.t("strategy.describe.separator"), parts);
    }

    /** A setting's value as the form shows it: a map of numbers as {@code cpu 0.5, latency 0.3}. */
    public static String text(Object v) {
        if (v instanceof Map<?, ?> m) {
            return m.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        }
        return String.valueOf(v);
    }

    /**
     * {@code path} → "the path", {@code header:X-User} → "header X-User", {@code ip} → "the client's IP"; a kind of
     * key the bundles do not know is written as the config writes it.
     */
    static String keyText(String key) {
        int colon = key.indexOf(':');
        if (colon > 0) {
            String kind = key.substring(0, colon);
            return localized("strategy.key." + kind, kind) + " " + key.substring(colon + 1);
        }
        return switch (key) {
            case "ip" -> Texts.t("strategy.key.ip");
            case "path" -> Texts.t("strategy.key.path");
            default -> key;
        };
    }

    /**
     * The strategy object for {@code type} from the form's texts (blank = the default). Values that do not parse as
     * their kind are sent as text so the engine's validation names the field and the value.
     */
    public static Map<String, Object> toMap(String type, Map<String, String> fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        for (StrategyOption o : optionsOf(type)) {
            String v = fields.get(o.name());
            if (v == null || v.isBlank()) {
                continue;
            }
            v = v.trim();
            m.put(o.name(), switch (o.kind()) {
                case HASH_KEY, FORMULA, CHOICE -> v;
                case NUMBER_OR_WORD -> o.words().contains(v) ? v : number(v, true);
                case NUMBER -> number(v, true);
                case INTEGER, LONG -> number(v, false);
                case NUMBER_MAP -> numberMap(v);
            });
        }
        return m;
    }

    private static Object number(String v, boolean decimal) {
        try {
            return decimal ? (Object) Double.parseDouble(v) : (Object) Long.parseLong(v);
        } catch (NumberFormatException e) {
            return v;
        }
    }

    /** {@code cpu 0.5, latency 0.3} (or {@code cpu=0.5}) as a map; text that does not read so is sent as is. */
    private static Object numberMap(String v) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (String part : v.split(",")) {
            String[] kv = part.trim().split("[\\s=:]+");
            if (kv.length != 2 || !(number(kv[1], true) instanceof Double d)) {
                return v;
            }
            m.put(kv[0], d);
        }
        return m;
    }
}
