package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;
import dev.fulcrum.spi.Candidate;
import dev.fulcrum.spi.Option;
import dev.fulcrum.spi.Picker;
import dev.fulcrum.spi.PluginStrategy;
import dev.fulcrum.spi.Settings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A plugin's strategy ({@link PluginStrategy}, from a jar) described as the engine describes its own: the same
 * {@link StrategyDescriptor}, so the config binder, {@link Strategies#violations}, the admin API, the Strategy form,
 * the exports and the simulator read it as they read a built-in. Its settings become {@link StrategyOption}s of the
 * same kinds, checked against the bounds the plugin declared (no plugin code runs to check a config); its strategy is
 * a {@link PluginPicks} over read-only views of the candidates.
 *
 * <p>Example: a jar at {@code /opt/fulcrum/plugins/cost.jar} providing {@code cost-first} with no options becomes a
 * descriptor named {@code cost-first}, {@link #source()} {@code /opt/fulcrum/plugins/cost.jar}, which a pool's
 * {@code {"type": "cost-first"}} selects. A plugin's pick is guarded by the pool ({@link PluginGuard}).
 */
public final class PluginDescriptor implements StrategyDescriptor {
    /** What a strategy's name may be: the built-ins' shape. */
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");

    private final PluginStrategy plugin;
    private final String source;
    private final List<StrategyOption> options;

    private PluginDescriptor(PluginStrategy plugin, String source, List<StrategyOption> options) {
        this.plugin = plugin;
        this.source = source;
        this.options = options;
    }

    /**
     * Describes {@code plugin}, checking what it says of itself.
     *
     * @param source where it came from (its jar's path), for messages
     * @throws IllegalArgumentException naming the strategy and what is wrong, e.g. {@code strategy Cost: name must
     *                                  be 1-64 characters of a-z, 0-9 and -, starting with a letter (got: Cost)}
     */
    public static PluginDescriptor of(PluginStrategy plugin, String source) {
        String name = plugin.name();
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("strategy name must be 1-64 characters of a-z, 0-9 and -, starting"
                    + " with a letter (got: " + Violation.shown(name) + ")");
        }
        require(name, "title", plugin.title());
        require(name, "sentence", plugin.sentence());
        List<Option> declared = plugin.options();
        if (declared == null) {
            throw new IllegalArgumentException("strategy " + name + ": options must not be null");
        }
        List<StrategyOption> options = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Option o : declared) {
            options.add(option(name, o));
            if (!seen.add(o.name())) {
                throw new IllegalArgumentException("strategy " + name + ": two options are called " + o.name());
            }
        }
        return new PluginDescriptor(plugin, source, List.copyOf(options));
    }

    private static void require(String name, String what, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("strategy " + name + ": " + what + " must not be empty (got: "
                    + Violation.shown(value) + ")");
        }
    }

    /** The engine's option for a plugin's, its bounds checked here once. */
    private static StrategyOption option(String strategy, Option o) {
        if (o == null) {
            throw new IllegalArgumentException("strategy " + strategy + ": an option is null");
        }
        String field = o.name();
        if (field == null || !field.matches("[A-Za-z][A-Za-z0-9]{0,63}") || field.equals("type")) {
            throw new IllegalArgumentException("strategy " + strategy + ": option name must be letters and digits,"
                    + " starting with a letter, and not type (got: " + Violation.shown(field) + ")");
        }
        require(strategy + " option " + field, "label", o.label());
        if (o.kind() != Option.Kind.HASH_KEY) {
            if (!(o.min() <= o.max())) {
                throw new IllegalArgumentException("strategy " + strategy + ": option " + field + ": min must not"
                        + " exceed max (got: " + Violation.shown(o.min()) + " and " + Violation.shown(o.max()) + ")");
            }
            if (o.phrase() == null || !o.phrase().contains("%s")) {
                throw new IllegalArgumentException("strategy " + strategy + ": option " + field + ": phrase must"
                        + " hold %s for the value (got: " + Violation.shown(o.phrase()) + ")");
            }
        }
        StrategyOption.Kind kind = StrategyOption.Kind.valueOf(o.kind().name());
        Function<Object, List<Violation>> check = switch (o.kind()) {
            case INTEGER, LONG -> v -> bounded(field, ((Number) v).doubleValue(), o, v);
            case NUMBER -> v -> bounded(field, ((Number) v).doubleValue(), o, v);
            case HASH_KEY -> v -> {
                String problem = Limits.hashKey((String) v);
                return problem == null ? List.of() : List.of(new Violation(field, problem, v));
            };
            case NUMBER_MAP -> v -> {
                List<Violation> out = new ArrayList<>();
                ((Map<?, ?>) v).forEach((k, n) -> out.addAll(bounded(field + "." + k, ((Number) n).doubleValue(), o,
                        n)));
                return out;
            };
        };
        Object dflt = o.defaultValue();
        if (dflt != null) {
            List<Violation> wrong = check.apply(dflt);
            if (!wrong.isEmpty()) {
                throw new IllegalArgumentException("strategy " + strategy + ": option " + field + ": its default "
                        + wrong.get(0).describe());
            }
        }
        return new StrategyOption(field, kind, dflt, check, o.label(), o.hint() == null ? "" : o.hint(),
                o.phrase());
    }

    private static List<Violation> bounded(String field, double d, Option o, Object value) {
        if (d >= o.min() && d <= o.max()) {
            return List.of();
        }
        return List.of(new Violation(field, "must be between " + plain(o.min()) + " and " + plain(o.max()), value));
    }

    private static String plain(double d) {
        return Double.isFinite(d) ? BigDecimal.valueOf(d).stripTrailingZeros().toPlainString() : Double.toString(d);
    }

    /** Where the strategy came from: its jar's path. */
    public String source() {
        return source;
    }

    @Override
    public String name() {
        return plugin.name();
    }

    @Override
    public String title() {
        return plugin.title();
    }

    @Override
    public String sentence() {
        return plugin.sentence();
    }

    @Override
    public List<StrategyOption> options() {
        return options;
    }

    @Override
    public boolean readsWeights() {
        return plugin.readsWeights();
    }

    @Override
    public boolean hashes() {
        return plugin.hashes();
    }

    /** Runs the plugin's factory; what it throws goes on (the pool's {@link PluginGuard} catches it). */
    @Override
    public Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env) {
        List<Candidate> views = new ArrayList<>(candidates.size());
        for (int i = 0; i < candidates.size(); i++) {
            views.add(new PluginCandidate(candidates.get(i), candidates.weight(i)));
        }
        Picker before = previous instanceof PluginPicks p ? p.picker() : null;
        Picker picker = plugin.create(new SpecSettings(spec), Collections.unmodifiableList(views), before);
        if (picker == null) {
            throw new IllegalStateException(name() + " made no picker (create returned null)");
        }
        return new PluginPicks(name(), picker, views);
    }

    @Override
    public String toString() {
        return name() + " (from " + source + ")";
    }

    /** A plugin's read-only view of one candidate; the engine maps a returned view back to its backend. */
    static final class PluginCandidate implements Candidate {
        final Backend backend;
        private final double effectiveWeight;

        PluginCandidate(Backend backend, int scaledWeight) {
            this.backend = backend;
            this.effectiveWeight = scaledWeight / (double) Strategies.WEIGHT_SCALE;
        }

        @Override
        public String id() {
            return backend.id();
        }

        @Override
        public double weight() {
            return effectiveWeight;
        }

        @Override
        public Map<String, String> labels() {
            return backend.labels();
        }

        @Override
        public String label(String name) {
            return backend.label(name);
        }

        @Override
        public int inFlight() {
            return backend.inFlight();
        }

        @Override
        public boolean backup() {
            return backend.isBackup();
        }

        @Override
        public String toString() {
            return backend.id();
        }
    }

    /** A checked spec's settings (defaults filled) as the plugin asks for them. */
    private record SpecSettings(StrategySpec spec) implements Settings {
        @Override
        public int integer(String name) {
            return require(name, spec.integer(name));
        }

        @Override
        public long longValue(String name) {
            return require(name, spec.longValue(name));
        }

        @Override
        public Double number(String name) {
            return spec.number(name);
        }

        @Override
        public String hashKey() {
            return spec.key();
        }

        @Override
        public Map<String, Double> numbers(String name) {
            return spec.numberMap(name);
        }

        private <T> T require(String name, T value) {
            if (value == null) {
                throw new IllegalArgumentException("settings: " + spec.type() + " has no whole-number setting "
                        + name);
            }
            return value;
        }
    }
}
