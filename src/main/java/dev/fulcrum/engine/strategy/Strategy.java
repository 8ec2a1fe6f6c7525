package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.PoolSnapshot;
import dev.fulcrum.engine.hash.KeySpace;

/**
 * Picks one backend for a request from the candidates of one {@link PoolSnapshot}. A strategy is immutable
 * with respect to membership: the pool builds a new one for every new snapshot (passing the previous one so
 * smooth weighted round robin keeps its current weights). Picking never blocks and never allocates beyond
 * reading the request's key. Its {@link StrategyDescriptor} says what it is and builds it.
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

    /**
     * The pick this strategy would make for {@code request} now among the candidates that can take it, and how it
     * came to it, without moving anything a real pick moves (a round-robin position, a smooth-WRR current weight):
     * explaining a request must not change where the next one goes. Strategies that neither hash nor draw and keep
     * no position need not override this.
     *
     * @param random the randomness to draw with where the strategy draws (seeded, for a reproducible account)
     */
    default Explanation explain(RequestContext request, RandomSource random) {
        return Explanation.of(pick(request, Eligibility.ADMITTING));
    }

    /**
     * Each candidate's score as the strategy sees it now, in candidate order, for {@code GET /api/state} and the
     * window; null for a strategy that does not score (every built-in but {@code score}).
     */
    default java.util.List<CandidateScore> candidateScores() {
        return null;
    }
}
