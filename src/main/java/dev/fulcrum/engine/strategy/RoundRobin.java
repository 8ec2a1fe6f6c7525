package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code round-robin}: each candidate in id order, ignoring weights: a, b, c, a, b, c. An ineligible
 * candidate's turn passes to whoever's turn is next, so the others share it evenly. The position is one shared counter
 * (lock-free). A new snapshot (every tick while slow start ramps, every state change) starts a new strategy,
 * which goes on from where the previous one stopped: started again from the first candidate, every rebuild would
 * hand its first request to the same backend, and at a few requests a second that would be all of them.
 */
final class RoundRobin implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.ROUND_ROBIN, "round robin",
            "Each backend in turn, ignoring weights: a b c a b c.",
            List.of(), false, false, (spec, c, prev, env) -> new RoundRobin(c, prev));

    private final Candidates c;
    private final AtomicLong next;

    RoundRobin(Candidates candidates, Strategy previous) {
        this.c = candidates;
        this.next = new AtomicLong(previous instanceof RoundRobin r ? r.next.get() : 0);
    }

    @Override
    public String type() {
        return StrategySpec.ROUND_ROBIN;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        // a skipped backend's turn goes on to whoever's turn comes next, not always to its successor (which would
        // take a's whole share while a is at its cap; nginx spreads it evenly over those that can take it)
        int at = 0;
        for (int tries = 0; tries < n; tries++) {
            at = (int) Long.remainderUnsigned(next.getAndIncrement(), n);
            Backend b = c.get(at);
            if (eligible.test(b)) {
                return b;
            }
        }
        // other threads may take turns meanwhile, so n turns need not cover every candidate (a retry could find
        // none while its one other backend is free, and answer 502): look at each once
        return Picking.scanFrom(c, at, eligible);
    }

    /** The next turn's backend, asked of a twin that starts where this one is, so no position moves. */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        return Explanation.of(new RoundRobin(c, this).pick(request, Eligibility.ADMITTING));
    }
}
