package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.rules.Violation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry of strategies, and the one check of a strategy object. Candidate weights arrive scaled by
 * {@link #WEIGHT_SCALE} (effective weight in hundredths) so slow start can ramp a weight-1 backend smoothly; the
 * ratios, and so every weighted sequence, are the same as with the configured weights.
 *
 * <p>Each built-in strategy is a small final class of this package holding its {@link StrategyDescriptor} as
 * {@code DESCRIPTOR}; adding one is that class and its line in {@link #ALL}. Strategies from plugin jars
 * ({@link PluginDescriptor}, docs/PLUGINS.md) are added by {@link #register} at start-up, and every reader of the
 * registry ({@link #names}, {@link #descriptor}, {@link #all}, {@link StrategySpec#TYPES}) sees them beside the
 * built-ins.
 */
public final class Strategies {
    public static final int WEIGHT_SCALE = 100;

    /** Every built-in strategy, in the order docs/REFERENCE.md §2.2 lists them. */
    public static final List<StrategyDescriptor> ALL = List.of(
            RoundRobin.DESCRIPTOR,
            RandomChoice.DESCRIPTOR,
            WeightedRandom.DESCRIPTOR,
            SmoothWeightedRoundRobin.DESCRIPTOR,
            LeastRequests.DESCRIPTOR,
            PowerOfTwoChoices.DESCRIPTOR,
            ConsistentHash.DESCRIPTOR,
            Maglev.DESCRIPTOR,
            IpHash.DESCRIPTOR,
            FastestResponse.DESCRIPTOR,
            Adaptive.DESCRIPTOR,
            ScoreStrategy.DESCRIPTOR);

    /**
     * What is registered now: the built-ins, then the plugins' strategies. Published whole through one volatile
     * field, so a reader on any thread sees either the built-ins alone or every plugin too; plugins are registered
     * once, at start-up, before any config is read ({@link #register}).
     */
    private static volatile Registry registry = new Registry(ALL);

    private Strategies() {
    }

    /** The strategies by name and every setting some strategy takes (the first registered strategy's option of it). */
    private record Registry(List<StrategyDescriptor> all, Map<String, StrategyDescriptor> byName,
                            Map<String, StrategyOption> settings) {
        Registry(List<StrategyDescriptor> all) {
            this(List.copyOf(all), Strategies.byName(all), Strategies.settings(all));
        }
    }

    private static Map<String, StrategyDescriptor> byName(List<StrategyDescriptor> all) {
        Map<String, StrategyDescriptor> m = new LinkedHashMap<>();
        for (StrategyDescriptor d : all) {
            if (m.put(d.name(), d) != null) {
                throw new IllegalStateException("two strategies are called " + d.name());
            }
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, StrategyOption> settings(List<StrategyDescriptor> all) {
        Map<String, StrategyOption> m = new LinkedHashMap<>();
        all.forEach(d -> d.options().forEach(o -> m.putIfAbsent(o.name(), o)));
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Adds the plugins' strategies to the registry, all or none. A plugin registered again from the same source (the
     * same jar path) is skipped, so a second start in one process (a test, a restarted window) is harmless.
     *
     * @throws IllegalArgumentException {@code plugins: /a/x.jar provides round-robin, which is a built-in strategy},
     *                                  or {@code plugins: two strategies are called cost-first (in /a/x.jar and
     *                                  /b/y.jar)}; nothing is registered then
     */
    public static synchronized void register(List<PluginDescriptor> plugins) {
        Registry r = registry;
        List<StrategyDescriptor> all = new ArrayList<>(r.all());
        Map<String, StrategyDescriptor> names = new LinkedHashMap<>(r.byName());
        for (PluginDescriptor p : plugins) {
            StrategyDescriptor there = names.get(p.name());
            if (there == null) {
                names.put(p.name(), p);
                all.add(p);
            } else if (!(there instanceof PluginDescriptor other)) {
                throw new IllegalArgumentException("plugins: " + p.source() + " provides " + p.name()
                        + ", which is a built-in strategy");
            } else if (!other.source().equals(p.source()) || plugins.stream().filter(q -> q.name().equals(p.name()))
                    .count() > 1) {
                throw new IllegalArgumentException("plugins: two strategies are called " + p.name() + " (in "
                        + other.source() + " and " + p.source() + ")");
            }
        }
        registry = new Registry(all);
    }

    /**
     * Takes the plugins called {@code names} out of the registry again. For tests, which load plugins into a JVM that
     * runs other tests after them; Fulcrum itself registers its plugins once and keeps them.
     */
    static synchronized void forget(java.util.Collection<String> names) {
        List<StrategyDescriptor> all = new ArrayList<>(registry.all());
        all.removeIf(d -> d instanceof PluginDescriptor && names.contains(d.name()));
        registry = new Registry(all);
    }

    /** Every registered strategy, built-ins first in {@link #ALL}'s order, then the plugins' in load order. */
    public static List<StrategyDescriptor> all() {
        return registry.all();
    }

    /** The plugin strategy called {@code name}, or null when there is none (a built-in, or no such strategy). */
    public static PluginDescriptor plugin(String name) {
        return name != null && registry.byName().get(name) instanceof PluginDescriptor p ? p : null;
    }

    /**
     * What is wrong with {@code spec} as a pool's fallback, or null: the fallback must be a built-in (a plugin
     * failing over to a plugin would not be contained). Its settings are checked by {@link #violations}.
     */
    public static String fallbackProblem(StrategySpec spec) {
        if (spec == null || spec.type() == null) {
            return "required";
        }
        StrategyDescriptor d = descriptor(spec.type());
        if (d instanceof BuiltIn) {
            return null;
        }
        List<String> builtIns = ALL.stream().map(StrategyDescriptor::name).toList();
        return (d == null ? "unknown strategy" : "must be a built-in strategy, not a plugin's") + ", one of "
                + String.join(", ", builtIns);
    }

    /** Every strategy's name, in registration order. */
    public static List<String> names() {
        return List.copyOf(registry.byName().keySet());
    }

    /** {@link #names()} as a list that reads the registry each time it is read (so plugins registered later show). */
    static List<String> liveNames() {
        return new java.util.AbstractList<>() {
            @Override
            public String get(int index) {
                return names().get(index);
            }

            @Override
            public int size() {
                return registry.byName().size();
            }

            @Override
            public java.util.Iterator<String> iterator() {
                return names().iterator();
            }

            @Override
            public boolean contains(Object o) {
                return o instanceof String s && registry.byName().containsKey(s);
            }
        };
    }

    /** The strategy called {@code name}, or null. */
    public static StrategyDescriptor descriptor(String name) {
        return registry.byName().get(name);
    }

    /** {@code type} and every setting some strategy takes: the fields a strategy object may have. */
    public static Set<String> fieldNames() {
        Set<String> out = new java.util.LinkedHashSet<>(List.of("type"));
        out.addAll(registry.settings().keySet());
        return out;
    }

    /** Every setting some strategy takes, once each, in registration order (the Strategy form's rows). */
    public static List<StrategyOption> allOptions() {
        return List.copyOf(registry.settings().values());
    }

    /**
     * The option {@code name} as strategy {@code type} takes it, else as the first registered strategy takes it (so a
     * setting its type does not take is still read by its kind, for {@link #violations} to name), else null.
     */
    public static StrategyOption option(String type, String name) {
        StrategyDescriptor d = type == null ? null : descriptor(type);
        StrategyOption o = d == null ? null : d.option(name);
        return o != null ? o : registry.settings().get(name);
    }

    /**
     * @param spec       the strategy as configured; left-out settings take their defaults
     * @param candidates who may be picked, sorted by id, with scaled effective weights
     * @param previous   the strategy this one replaces (same pool, previous snapshot), or null; smooth weighted
     *                   round robin keeps its current weights from it, the ring and table reuse their
     *                   structure when membership and weights did not change
     * @param env        clock, randomness and the pool's in-flight count
     * @throws EngineException 400 naming the field when the spec is invalid (see {@link #validate})
     */
    public static Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env) {
        StrategySpec s = spec.withDefaults();
        List<Violation> problems = violations(s);
        if (!problems.isEmpty()) {
            throw new EngineException(400, "strategy." + problems.get(0).describe());
        }
        requireDistinctIds(candidates);
        Strategy prev = previous != null && s.type().equals(previous.type()) ? previous : null;
        return descriptor(s.type()).create(s, candidates, prev, env);
    }

    /**
     * Every problem with a spec, each as {@code field: what is wrong (got: value)} relative to the strategy object,
     * e.g. {@code tableSize: must be prime (e.g. 65537) (got: 65536)}; empty when it is valid. {@link #create}
     * throws the first one.
     */
    public static List<String> validate(StrategySpec spec) {
        return violations(spec).stream().map(Violation::describe).toList();
    }

    /**
     * Every problem with a spec, in the order of its descriptor's settings: the one check of a strategy object, which
     * the config file, the admin API and the engine share (the config reader puts the JSON path in front). A setting its type
     * does not take is a problem, as an unknown field is: it would be silently ignored otherwise. Each setting is
     * checked by its descriptor's {@link StrategyOption}.
     */
    public static List<Violation> violations(StrategySpec s) {
        List<Violation> out = new ArrayList<>();
        String type = s.type();
        if (type == null) {
            out.add(new Violation("type", "required", null));
            return out;
        }
        StrategyDescriptor d = descriptor(type);
        if (d == null) {
            out.add(new Violation("type", "unknown strategy, one of " + String.join(", ", names()), type));
            return out;
        }
        List<String> takes = d.options().stream().map(StrategyOption::name).toList();
        s.options().forEach((field, value) -> {
            if (!takes.contains(field)) {
                out.add(new Violation(field, "not used by strategy " + type
                        + (takes.isEmpty() ? " (it takes no settings)" : ", which takes " + String.join(", ", takes)),
                        value));
            }
        });
        // flat settings first, then those that hold settings of their own (adaptive's weights.cpu ...)
        List<StrategyOption> inOrder = new ArrayList<>(d.options());
        inOrder.sort(java.util.Comparator.comparing(o -> o.kind() == StrategyOption.Kind.NUMBER_MAP));
        for (StrategyOption o : inOrder) {
            Object v = s.option(o.name());
            if (v == null) {
                continue;
            }
            String wrongKind = wrongKind(o.kind(), v);
            if (wrongKind != null) {
                out.add(new Violation(o.name(), wrongKind, v));
            } else {
                out.addAll(o.violations(v));
            }
        }
        return out;
    }

    /** A value of the wrong Java type for its kind (given through the engine's API rather than the binder). */
    private static String wrongKind(StrategyOption.Kind kind, Object v) {
        return switch (kind) {
            case INTEGER, LONG -> v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte
                    ? null : "must be an integer";
            case NUMBER -> v instanceof Number ? null : "must be a number";
            case HASH_KEY, FORMULA, CHOICE -> v instanceof String ? null : "must be a string";
            case NUMBER_OR_WORD -> v instanceof Number || v instanceof String ? null : "must be a number or a string";
            case NUMBER_MAP -> v instanceof Map<?, ?> m && m.keySet().stream().allMatch(String.class::isInstance)
                    && m.values().stream().allMatch(Number.class::isInstance) ? null : "must be an object of numbers";
        };
    }

    /** Strategies that key state by id (ring, table, smooth WRR) would silently merge two backends. */
    private static void requireDistinctIds(Candidates candidates) {
        Set<String> seen = new HashSet<>();
        for (Backend b : candidates.backends()) {
            if (!seen.add(b.id())) {
                throw new IllegalArgumentException("candidates: duplicate backend id (got: " + b.id() + ")");
            }
        }
    }
}
