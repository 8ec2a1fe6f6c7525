package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.hash.HashRing;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.hash.XxHash64;
import dev.fulcrum.rules.Limits;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code consistent-hash}: the request's key (see {@link HashKey}) is hashed onto a {@link HashRing} and goes
 * to the owner of the first point clockwise. An ineligible owner (at its cap, breaker not admitting,
 * already tried) passes the request on to the next distinct backend clockwise, so the keys of a busy
 * backend spread over its ring neighbours rather than all landing on one.
 *
 * <p>With {@code balanceFactor} set this is consistent hashing with bounded loads (Mirrokni, Thorup and
 * Zadimoghaddam, 2016; HAProxy's {@code hash-balance-factor}, Envoy's {@code hash_balance_factor}): no
 * backend takes more than its weight's share of {@code balanceFactor x (poolInFlight + 1)} requests in flight:
 * {@code ceil(balanceFactor x (poolInFlight + 1) x weight / totalWeight)}, as HAProxy's {@code lb_chash} does
 * for unequal weights (an equal cap for all would make a backend of weight 9 beside one of weight 1 shed its
 * own keys, taking far less than its ring share). Example, equal weights: factor 1.25, 4 backends,
 * 11 in flight in the pool: the cap is ceil(1.25 x 12 / 4) = 4, so a backend with 4 in flight is passed over
 * for the next one clockwise below its cap. The caps add up to more than the requests in flight, so some
 * backend is always below its own; if every such backend is ineligible, the first eligible backend clockwise
 * takes the request rather than failing it.
 */
final class ConsistentHash implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.CONSISTENT_HASH, "consistent hashing",
            "Hash the request key onto a ring of virtual nodes: the same key "
                    + "goes to the same backend, and adding or removing one moves only its share of keys.",
            List.of(
                    StrategyOption.hashKey(Limits::hashKey),
                    StrategyOption.integer("virtualNodes", 160, Limits::virtualNodes, "Virtual nodes",
                            "ring points per backend (more = more even)", "%s virtual nodes per backend"),
                    StrategyOption.number("balanceFactor", null, Limits::balanceFactor, "Balance factor",
                            "bounded loads, e.g. 1.25; empty = off",
                            "bounded loads at %1$sx the average (balanceFactor=%1$s)")),
            true, true, (spec, c, prev, env) -> new ConsistentHash(c, spec, prev, env));

    private final Candidates c;
    private final HashRing ring;
    private final HashKey key;
    private final double balanceFactor; // 0 = off
    private final LongAdder poolInFlight;
    private final long totalWeight;

    ConsistentHash(Candidates candidates, StrategySpec spec, Strategy previous, StrategyEnv env) {
        this.c = candidates;
        this.key = HashKey.parse(spec.key());
        HashRing reuse = previous instanceof ConsistentHash p ? p.ring : null;
        this.ring = HashRing.build(candidates, spec.integer("virtualNodes"), reuse);
        this.balanceFactor = spec.number("balanceFactor") == null ? 0 : spec.number("balanceFactor");
        this.poolInFlight = env.poolInFlight();
        this.totalWeight = candidates.totalWeight();
    }

    @Override
    public String type() {
        return StrategySpec.CONSISTENT_HASH;
    }

    @Override
    public KeySpace keySpace() {
        return ring;
    }

    /** The cap on candidate {@code i}'s in-flight requests right now, or MAX_VALUE without bounded loads. */
    int cap(int i) {
        return cap(i, balanceFactor == 0 ? 0 : (int) poolInFlight.sum());
    }

    private int cap(int i, int inFlight) {
        if (balanceFactor == 0 || totalWeight == 0) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.ceil(balanceFactor * (inFlight + 1) * c.weight(i) / totalWeight);
    }

    /** The cap of the candidate called {@code id}, or null without bounded loads or without such a candidate. */
    Integer capOf(String id) {
        for (int i = 0; i < c.size() && balanceFactor != 0; i++) {
            if (c.get(i).id().equals(id)) {
                return cap(i);
            }
        }
        return null;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        String k = key.read(request);
        long h = XxHash64.hash(k);
        request.hashed(k, h);
        int p = ring.pointAt(h);
        int first = ring.ownerOf(p);
        Backend b = c.get(first);
        int inFlight = balanceFactor == 0 ? 0 : (int) poolInFlight.sum();
        boolean ok = eligible.test(b);
        if (ok && b.inFlight() < cap(first, inFlight)) {
            return b;
        }
        if (ok) {
            request.spilled();
        }
        return walk(p, first, inFlight, eligible, ok ? b : null);
    }

    /** Clockwise from point p, each distinct backend tested once, until one is eligible and under its cap. */
    private Backend walk(int p, int first, int inFlight, Eligibility eligible, Backend fallback) {
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
                if (b.inFlight() < cap(o, inFlight)) {
                    return b;
                }
                if (fallback == null) {
                    fallback = b;
                }
            }
        }
        return fallback;
    }

    /** The key, its hash, the ring point it lands on and, with bounded loads, its owner's cap. */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        String k = key.read(request);
        long h = ring.hash(k);
        int p = ring.pointAt(h);
        Placement placement = null;
        Integer cap = null;
        if (p >= 0) {
            placement = new Placement("ring", p, ring.points().get(p).hash(), ring.size(),
                    ring.points().get(p).backend());
            cap = capOf(placement.owner()); // the owner's: caps follow weights
        }
        return Explanation.hashed(pick(request, Eligibility.ADMITTING), key.toString(), k, h, placement, cap);
    }
}
