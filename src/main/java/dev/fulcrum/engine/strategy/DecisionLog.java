package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;

/**
 * Where a strategy writes how it came to one pick, when someone asked (docs/REFERENCE.md {@code proxy.logDecisions}):
 * the score each candidate had, the random draws, and any fallback taken. {@link RequestContext#decisions()} is null
 * unless the request's decision is being recorded, so a strategy pays one null check per pick otherwise.
 *
 * <p>Example, a score strategy over a, b, c with b's metrics stale: {@code score(a, 0.8, null)},
 * {@code score(b, 0.6, "stale")}, {@code score(c, 0.2, null)}, {@code draw(0.41)}: b was scored the average.
 */
public interface DecisionLog {
    /**
     * One candidate's score as the strategy saw it.
     *
     * @param fallback null when the score is the backend's own; else why another value stood in ({@code stale},
     *                 {@code missing}, {@code cold-start})
     */
    void score(Backend backend, double score, String fallback);

    /** A random draw the strategy made, in [0, 1) before scaling. */
    void draw(double value);

    /** The pick did not come from the configured strategy: why (e.g. {@code plugin failed: NullPointerException}). */
    void fallback(String reason);
}
