package dev.fulcrum.spi;

import java.util.List;

/**
 * One strategy from a plugin, described once, as the built-in strategies are: its name, what a person calls it, the
 * sentence the window shows, its settings with their bounds and defaults, whether it reads weights or hashes, and how
 * its {@link Picker} is made from a pool's candidates. Fulcrum turns it into the same description its own strategies
 * have, so a config, the admin API, the Strategy tab and {@code /api/state} treat it as one of them.
 *
 * <p>Implementations are immutable and thread-safe. {@link #create} runs on the engine's control thread each time the
 * pool's candidates change (a backend added, drained, ejected, reweighted, its breaker opened ...); the picker it
 * returns is then called from every request thread at once, without a lock.
 */
public interface PluginStrategy {

    /**
     * The name a config's {@code strategy.type} uses: 1-64 characters of lower-case letters, digits and {@code -},
     * starting with a letter, e.g. {@code cost-first}. It must differ from every built-in strategy and every other
     * plugin's.
     */
    String name();

    /** What a person calls it, e.g. "cheapest first". */
    String title();

    /** One sentence on how it picks, shown beside the strategy in the window. */
    String sentence();

    /** The settings it takes besides {@code type}, in the order the window lists them; none by default. */
    default List<Option> options() {
        return List.of();
    }

    /** Whether its picks depend on the backends' weights (slow start ramps a weight only where this is true). */
    default boolean readsWeights() {
        return false;
    }

    /** Whether it hashes a request key to a place (the window then offers its key views). */
    default boolean hashes() {
        return false;
    }

    /**
     * Makes the picker for one set of candidates.
     *
     * @param settings   the configured settings, each checked against its {@link Option} and its default filled
     * @param candidates who may be picked, sorted by id; never empty unless the pool has no available backend
     * @param previous   the picker this one replaces (same pool, same strategy), or null; what is worth keeping
     *                   across a change (a position, a table) comes from it
     */
    Picker create(Settings settings, List<Candidate> candidates, Picker previous);
}
