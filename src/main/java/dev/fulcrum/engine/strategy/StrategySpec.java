package dev.fulcrum.engine.strategy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strategy as configured (docs/REFERENCE.md §2.2): its type and its settings by name, e.g.
 * {@code consistent-hash {key=path, virtualNodes=160}}. Which settings a type takes, their kinds, bounds and defaults
 * are its {@link StrategyDescriptor}'s; a spec only holds values, so a new setting changes no constructor call.
 *
 * @param type    the strategy's name, or null when a config left it out (a problem {@link Strategies#violations}
 *                reports)
 * @param options the settings given, in the order given; never null, no null values
 */
public record StrategySpec(String type, Map<String, Object> options) {

    public static final String ROUND_ROBIN = "round-robin";
    public static final String RANDOM = "random";
    public static final String WEIGHTED_RANDOM = "weighted-random";
    public static final String SMOOTH_WRR = "smooth-weighted-round-robin";
    public static final String LEAST_REQUESTS = "least-requests";
    public static final String POWER_OF_TWO = "power-of-two";
    public static final String CONSISTENT_HASH = "consistent-hash";
    public static final String MAGLEV = "maglev";
    public static final String IP_HASH = "ip-hash";
    public static final String FASTEST_RESPONSE = "fastest-response";
    public static final String ADAPTIVE = "adaptive";
    public static final String SCORE = "score";

    /**
     * Every registered strategy's name: the built-ins in the order docs/REFERENCE.md §2.2 lists them, then the
     * plugins' (docs/PLUGINS.md). It reads the registry when read, so plugins registered at start-up are in it.
     */
    public static final List<String> TYPES = Strategies.liveNames();

    public StrategySpec {
        Map<String, Object> copy = new LinkedHashMap<>();
        if (options != null) {
            options.forEach((k, v) -> {
                if (v != null) {
                    copy.put(k, v instanceof Map<?, ?> m ? Collections.unmodifiableMap(new LinkedHashMap<>(m)) : v);
                }
            });
        }
        options = Collections.unmodifiableMap(copy);
    }

    /** {@code type} with its defaults. */
    public static StrategySpec of(String type) {
        return bare(type).withDefaults();
    }

    /** {@code type} with no settings given (its defaults not filled in). */
    public static StrategySpec bare(String type) {
        return new StrategySpec(type, Map.of());
    }

    /** This spec with {@code option} set to {@code value}, or left out when {@code value} is null. */
    public StrategySpec with(String option, Object value) {
        Map<String, Object> m = new LinkedHashMap<>(options);
        if (value == null) {
            m.remove(option);
        } else {
            m.put(option, value);
        }
        return new StrategySpec(type, m);
    }

    /** A setting's value as given (or filled by {@link #withDefaults}), or null. */
    public Object option(String name) {
        return options.get(name);
    }

    /** A whole-number setting, or null. */
    public Integer integer(String name) {
        return options.get(name) instanceof Number n ? n.intValue() : null;
    }

    /** A duration or other long setting, or null. */
    public Long longValue(String name) {
        return options.get(name) instanceof Number n ? n.longValue() : null;
    }

    /** A numeric setting, or null. */
    public Double number(String name) {
        return options.get(name) instanceof Number n ? n.doubleValue() : null;
    }

    /**
     * A setting from names to numbers, e.g. adaptive's {@code weights}, each number as a double (the engine's API may
     * be given {@code 1} where a config file binds {@code 1.0}), or null. Call it on a checked spec: a value that is
     * not a number is a {@link Strategies#violations} problem.
     */
    public Map<String, Double> numberMap(String name) {
        if (!(options.get(name) instanceof Map<?, ?> m)) {
            return null;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put((String) k, ((Number) v).doubleValue()));
        return Collections.unmodifiableMap(out);
    }

    /** The hashing key of a strategy that hashes one ({@code ip}, {@code path}, {@code header:NAME} ...), or null. */
    public String key() {
        return options.get("key") instanceof String s ? s : null;
    }

    /** This spec's descriptor, or null when the type is unknown (or left out). */
    public StrategyDescriptor descriptor() {
        return type == null ? null : Strategies.descriptor(type);
    }

    /** This spec with every setting its type takes and leaves out set to the descriptor's default. */
    public StrategySpec withDefaults() {
        StrategyDescriptor d = descriptor();
        if (d == null) {
            return this;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (StrategyOption o : d.options()) {
            Object v = options.containsKey(o.name()) ? options.get(o.name()) : o.defaultValue();
            if (v != null) {
                m.put(o.name(), v);
            }
        }
        options.forEach(m::putIfAbsent); // settings its type does not take stay, for violations to name
        return new StrategySpec(type, m);
    }

    /** Whether picks depend on the backends' weights, so that slow start's ramp changes them. */
    public boolean readsWeights() {
        StrategyDescriptor d = descriptor();
        return d == null || d.readsWeights();
    }

    /** Whether the strategy hashes a request key. */
    public boolean hashes() {
        StrategyDescriptor d = descriptor();
        return d != null && d.hashes();
    }

    /** {@code newType} with its defaults (a change of type keeps none of the old settings). */
    public StrategySpec withType(String newType) {
        return of(newType);
    }
}
