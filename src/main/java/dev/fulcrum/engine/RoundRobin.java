package dev.fulcrum.engine;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code round-robin}: each candidate in id order, ignoring weights: a, b, c, a, b, c. An ineligible
 * candidate is skipped and the next one in order takes the request. The position is one shared counter
 * (lock-free). A new snapshot (every tick while slow start ramps, every state change) starts a new strategy,
 * which goes on from where the previous one was: started again from the first candidate, every rebuild would hand
 * its first request to the same backend, and at a few requests a second that was all of them.
 */
final class RoundRobin implements Strategy {
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
        int start = (int) Long.remainderUnsigned(next.getAndIncrement(), n);
        Backend b = c.get(start);
        return eligible.test(b) ? b : Picking.scanFrom(c, start + 1 == n ? 0 : start + 1, eligible);
    }
}
