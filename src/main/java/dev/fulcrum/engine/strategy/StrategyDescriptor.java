package dev.fulcrum.engine.strategy;

import java.util.List;

/**
 * Everything Fulcrum knows about one strategy, said once: its name, the settings it takes with their bounds and
 * defaults, whether its picks read weights, whether it hashes a request key, the sentence the window shows, and how
 * it is built from a snapshot's candidates. How it explains one pick is its {@link Strategy}'s
 * {@link Strategy#explain}. The config binder, the admin API, the Strategy form, the exports, the simulator and
 * "Why this backend" read this description; none keeps a list of its own.
 *
 * <p>Built-in strategies are registered in {@link Strategies#ALL}; a strategy from a plugin jar (docs/PLUGINS.md)
 * is described through {@code dev.fulcrum.spi} and adapted to this same interface by {@link PluginDescriptor}. Implementations are immutable and thread-safe: {@link #create} runs on the engine's control
 * thread and in the simulator, the rest anywhere.
 *
 * <p>Example, round robin: name {@code round-robin}, no options, does not read weights, does not hash, sentence
 * "Each backend in turn, ignoring weights: a b c a b c.", created as a counter over the candidates that carries on
 * from its predecessor's position.
 */
public interface StrategyDescriptor {

    /** The name configs and the admin API use, e.g. {@code consistent-hash} (docs/REFERENCE.md §2.2). */
    String name();

    /** What a person calls it, e.g. "consistent hashing". */
    String title();

    /** One sentence on how it picks, shown beside the strategy in the window. */
    String sentence();

    /** The settings it takes besides {@code type}, in the order docs/REFERENCE.md lists them; empty for none. */
    List<StrategyOption> options();

    /**
     * Whether picks depend on the backends' weights (beyond weight 0 leaving the candidates, which the pool does for
     * every strategy). Slow start ramps the weight, so it applies only where this is true; an export of a strategy
     * that reads no weights writes none.
     */
    boolean readsWeights();

    /** Whether it hashes a request key to a place (a ring point, a table slot, a point on the weight line). */
    boolean hashes();

    /**
     * Builds the strategy for one snapshot.
     *
     * @param spec       the configured strategy with its defaults filled and already checked
     * @param candidates who may be picked, sorted by id, with effective weights scaled by
     *                   {@link Strategies#WEIGHT_SCALE}
     * @param previous   the strategy it replaces of the same type (same pool, previous snapshot), or null; state
     *                   worth keeping across a rebuild (a round-robin position, a ring to reuse) comes from it
     * @param env        clock, randomness and the pool's in-flight count
     */
    Strategy create(StrategySpec spec, Candidates candidates, Strategy previous, StrategyEnv env);

    /** The option called {@code name}, or null when this strategy takes no such setting. */
    default StrategyOption option(String name) {
        for (StrategyOption o : options()) {
            if (o.name().equals(name)) {
                return o;
            }
        }
        return null;
    }
}
