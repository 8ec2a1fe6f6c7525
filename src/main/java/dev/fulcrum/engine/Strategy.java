package dev.fulcrum.engine;

/**
 * Picks one backend for a request from the candidates of one {@link PoolSnapshot}. A strategy is immutable
 * with respect to membership: the pool builds a new one for every new snapshot (passing the previous one so
 * smooth weighted round robin keeps its current weights). Picking never blocks and never allocates beyond
 * reading the request's key.
 */
public interface Strategy {
    /** The docs/REFERENCE.md §2.2 name, e.g. {@code smooth-weighted-round-robin}. */
    String type();

    /**
     * @param request  the request being routed
     * @param eligible which candidates may take it right now
     * @return the chosen candidate, or null when no candidate is eligible
     */
    Backend pick(RequestContext request, Eligibility eligible);

    /** Ring or Maglev strategies expose their key space; the others return null. */
    default KeySpace keySpace() {
        return null;
    }
}
