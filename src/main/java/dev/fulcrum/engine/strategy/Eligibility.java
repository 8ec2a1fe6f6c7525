package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;

/**
 * A per-pick filter over the snapshot's candidates: the ones already tried by this request, those at their
 * {@code maxInFlight} cap, and those whose breaker admits no more calls. Strategies skip a candidate that
 * fails it the way their algorithm says (the ring walks clockwise, round robin moves on, ...).
 */
@FunctionalInterface
public interface Eligibility {
    boolean test(Backend backend);

    /** Everything the snapshot holds that can take one more request right now. */
    Eligibility ADMITTING = Backend::admitsAnother;
}
