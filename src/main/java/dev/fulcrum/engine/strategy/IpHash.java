package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.hash.XxHash64;
import java.util.List;

/**
 * {@code ip-hash}: the client IP's hash, reduced modulo the total weight, picks a point on the weight line
 * (weights 2,1: remainders 0 and 1 are the first backend, 2 the second), so a client sticks to one backend
 * while membership and weights stay the same. When that backend is ineligible the hash is rehashed and
 * tried again, up to {@link #REHASHES} times (nginx's {@code ip_hash} tries 20), then the candidates after
 * it are scanned in order.
 *
 * <p>How it differs from {@code consistent-hash} with {@code key: ip}: the modulo spreads clients exactly by
 * weight with no ring to build or store, and a lookup is one hash and a binary search; but changing the
 * total weight (adding, removing or reweighting any backend) remaps most clients, where the ring moves only
 * about 1/n of them. Use it for a fixed set of backends; use the ring (or Maglev) when membership changes.
 * Unlike nginx, which hashes the first three octets of an IPv4 address, the whole address is hashed.
 */
final class IpHash implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.IP_HASH, "client IP hashing",
            "Hash the client's IP address to pick a backend (nginx's ip_hash).",
            List.of(), true, true, (spec, c, prev, env) -> new IpHash(c));

    static final int REHASHES = 20;

    private final Candidates c;
    private final long[] starts;
    private final boolean uniform;

    IpHash(Candidates candidates) {
        this.c = candidates;
        this.starts = Picking.starts(candidates.weights());
        this.uniform = Picking.allEqual(candidates.weights());
    }

    @Override
    public String type() {
        return StrategySpec.IP_HASH;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        String ip = request.clientIp();
        long h = XxHash64.hash(ip == null ? "" : ip);
        request.hashed(ip, h);
        int idx = 0;
        for (int attempt = 0; attempt <= REHASHES; attempt++) {
            idx = index(position(h));
            Backend b = c.get(idx);
            if (eligible.test(b)) {
                return b;
            }
            h = XxHash64.mix(h);
        }
        return Picking.scanFrom(c, idx + 1 == n ? 0 : idx + 1, eligible);
    }

    /** Where hash {@code h} lands on the weight line (a candidate's index when the weights are equal). */
    private long position(long h) {
        return uniform ? XxHash64.mod(h, c.size()) : Long.remainderUnsigned(h, starts[c.size()]);
    }

    /** The candidate owning position {@code pos} of the weight line. */
    private int index(long pos) {
        return uniform ? (int) pos : Picking.segment(starts, pos);
    }

    /** The client address, its hash and the point on the weight line it lands on. */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        String ip = request.clientIp() == null ? "" : request.clientIp();
        long h = XxHash64.hash(ip);
        Placement placement = null;
        int n = c.size();
        if (n > 0) {
            long pos = position(h);
            int idx = index(pos);
            placement = new Placement("weight-line", idx, pos, uniform ? n : starts[n], c.get(idx).id());
        }
        return Explanation.hashed(pick(request, Eligibility.ADMITTING), "ip", ip, h, placement, null);
    }
}
