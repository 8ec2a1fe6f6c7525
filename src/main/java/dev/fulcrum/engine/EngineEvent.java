package dev.fulcrum.engine;

/**
 * One change worth telling the window and {@code /api/events} about.
 *
 * @param type    breaker, health, membership, weight, strategy, drain (plus demo, config and plugin-failed: from the
 *                plugin strategy's name, to why it failed)
 * @param pool    the pool the backend belongs to
 * @param backend the backend id, or null for pool-wide events such as a strategy change
 * @param from    the previous value as text (a state name, a weight), or null
 * @param to      the new value as text, or null
 * @param at      wall-clock milliseconds since the epoch
 * @param route   the route's index in {@code routes} for a route's events ({@code split}: from and to the weights
 *                as {@code stable=95 canary=5}; {@code guard}: to why it rolled back), else null
 */
public record EngineEvent(String type, String pool, String backend, String from, String to, long at, Integer route) {
    public EngineEvent(String type, String pool, String backend, String from, String to, long at) {
        this(type, pool, backend, from, to, at, null);
    }
}
