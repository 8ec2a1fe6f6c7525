package dev.fulcrum.engine.strategy;

/**
 * What a strategy may look at in a request. The proxy implements it lazily over the live exchange so a
 * pick that needs no key reads nothing; tests use {@link SimpleRequest}.
 */
public interface RequestContext {
    String clientIp();

    String method();

    String path();

    /** First value of the named header (case-insensitive), or null. */
    String header(String name);

    /** Value of the named cookie, or null. */
    String cookie(String name);

    /** First value of the named query parameter, or null. */
    String queryParam(String name);

    /** Told by a hashing strategy what it hashed and to what, so the request's record can show both. */
    default void hashed(String key, long hash) {
    }

    /** Told by bounded loads that the key's owner was at its cap and the request walked on to another backend. */
    default void spilled() {
    }

    /** Where to record how this request's backend was chosen, or null when nobody asked (see {@link DecisionLog}). */
    default DecisionLog decisions() {
        return null;
    }
}
