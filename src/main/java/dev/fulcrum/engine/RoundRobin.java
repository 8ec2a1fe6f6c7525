package dev.fulcrum.engine;

import java.util.concurrent.atomic.AtomicLong;

/** Plain round robin: each candidate in id order, ignoring weights; skips ineligible candidates. */
final class RoundRobin implements Strategy {
    private final Candidates c;
    private final AtomicLong next = new AtomicLong();

    RoundRobin(Candidates candidates) {
        this.c = candidates;
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
        long start = next.getAndIncrement();
        for (int i = 0; i < n; i++) {
            Backend b = c.get((int) Math.floorMod(start + i, (long) n));
            if (eligible.test(b)) {
                return b;
            }
        }
        return null;
    }
}
