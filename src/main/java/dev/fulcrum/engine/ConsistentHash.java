package dev.fulcrum.engine;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code consistent-hash}: the request's key (see {@link HashKey}) is hashed onto a {@link HashRing} and goes
 * to the owner of the first point clockwise. An ineligible owner (at its cap, breaker not admitting,
 * already tried) passes the request on to the next distinct backend clockwise, so the keys of a busy
 * backend spread over its ring neighbours rather than all landing on one.
 *
 * <p>With {@code balanceFactor} set this is consistent hashing with bounded loads (Mirrokni, Thorup and
 * Zadimoghaddam, 2016; HAProxy's {@code hash-balance-factor}, Envoy's {@code hash_balance_factor}): no
 * backend takes more than {@code ceil(balanceFactor x (poolInFlight + 1) / n)} requests in flight. Example:
 * factor 1.25, 4 backends, 11 in flight in the pool: the cap is ceil(1.25 x 12 / 4) = 4, so a backend with 4
 * in flight is passed over for the next one clockwise below 4. The cap counts requests, not weight, as in
 * the paper and in HAProxy. By pigeonhole some backend is always below the cap; if every backend below it
 * is ineligible, the first eligible backend clockwise takes the request rather than failing it.
 */
final class ConsistentHash implements Strategy {
    private final Candidates c;
    private final HashRing ring;
    private final HashKey key;
    private final double balanceFactor; // 0 = off
    private final AtomicInteger poolInFlight;

    ConsistentHash(Candidates candidates, StrategySpec spec, Strategy previous, StrategyEnv env) {
        this.c = candidates;
        this.key = HashKey.parse(spec.key());
        HashRing reuse = previous instanceof ConsistentHash p ? p.ring : null;
        this.ring = HashRing.build(candidates, spec.virtualNodes(), reuse);
        this.balanceFactor = spec.balanceFactor() == null ? 0 : spec.balanceFactor();
        this.poolInFlight = env.poolInFlight();
    }

    @Override
    public String type() {
        return StrategySpec.CONSISTENT_HASH;
    }

    @Override
    public KeySpace keySpace() {
        return ring;
    }

    /** The cap on any one backend's in-flight requests right now, or MAX_VALUE without bounded loads. */
    int cap() {
        if (balanceFactor == 0) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.ceil(balanceFactor * (poolInFlight.get() + 1) / c.size());
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        int p = ring.pointAt(XxHash64.hash(key.read(request)));
        int first = ring.ownerOf(p);
        Backend b = c.get(first);
        int cap = cap();
        boolean ok = eligible.test(b);
        if (ok && b.inFlight() < cap) {
            return b;
        }
        return walk(p, first, cap, eligible, ok ? b : null);
    }

    /** Clockwise from point p, each distinct backend tested once, until one is eligible and under the cap. */
    private Backend walk(int p, int first, int cap, Eligibility eligible, Backend fallback) {
        int n = c.size();
        if (n == 1) {
            return fallback;
        }
        Picking.Seen seen = Picking.Seen.clear(n);
        seen.add(first);
        int tested = 1;
        int size = ring.size();
        for (int step = 1; step < size && tested < n; step++) {
            int q = p + step;
            if (q >= size) {
                q -= size;
            }
            int o = ring.ownerOf(q);
            if (!seen.add(o)) {
                continue;
            }
            tested++;
            Backend b = c.get(o);
            if (eligible.test(b)) {
                if (b.inFlight() < cap) {
                    return b;
                }
                if (fallback == null) {
                    fallback = b;
                }
            }
        }
        return fallback;
    }
}
