package dev.fulcrum.spi;

/**
 * Picks one candidate for a request. One picker serves one set of candidates and is called from many request threads
 * at once: it must be thread-safe, must not block, and should take microseconds (a pool switches to its fallback
 * strategy when its picks average more than {@code pluginBudgetMs} over a second, or when one throws).
 */
@FunctionalInterface
public interface Picker {

    /**
     * @param request  the request being routed
     * @param eligible which candidates may take it now (not at their in-flight cap, breaker admitting, not already
     *                 tried by this request); skip the others
     * @return one of the candidates the picker was created with, or null when none is eligible
     */
    Candidate pick(Request request, Eligible eligible);

    /**
     * The candidate {@link #pick} would choose for {@code request} now, without moving anything a pick moves (a
     * position, a counter): "Why this backend" asks, and asking must not change where the next request goes. The
     * default picks, which is right for a picker that keeps no state.
     */
    default Candidate explain(Request request, Eligible eligible) {
        return pick(request, eligible);
    }
}
