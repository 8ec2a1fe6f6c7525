package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.engine.hash.MaglevTable;
import dev.fulcrum.engine.hash.XxHash64;
import dev.fulcrum.rules.Limits;
import java.util.List;

/**
 * {@code maglev}: the request's key (see {@link HashKey}) is hashed and looked up in a {@link MaglevTable}:
 * {@code table[hash mod tableSize]}, O(1) per pick. When that owner is ineligible the request walks forward
 * slot by slot to the first slot whose backend is eligible, testing each distinct backend once; the walk
 * ends when all have been tested. Because the table interleaves backends finely, a busy backend's keys
 * spread over many others, as on the ring.
 */
final class Maglev implements Strategy {
    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.MAGLEV, "Maglev hashing",
            "Google's Maglev: a prime-sized lookup table filled by each backend's "
                    + "preference order, for even shares and minimal disruption with O(1) lookups.",
            List.of(
                    StrategyOption.hashKey(Limits::hashKey),
                    StrategyOption.integer("tableSize", 65537, Limits::tableSize, "Table size",
                            "prime, e.g. 65537", "a table of %s slots")),
            true, true, (spec, c, prev, env) -> new Maglev(c, spec, prev));

    private final Candidates c;
    private final MaglevTable table;
    private final HashKey key;

    Maglev(Candidates candidates, StrategySpec spec, Strategy previous) {
        this.c = candidates;
        this.key = HashKey.parse(spec.key());
        MaglevTable reuse = previous instanceof Maglev p ? p.table : null;
        this.table = MaglevTable.build(candidates, spec.integer("tableSize"), reuse);
    }

    @Override
    public String type() {
        return StrategySpec.MAGLEV;
    }

    @Override
    public KeySpace keySpace() {
        return table;
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
        int slot = table.slotOf(h);
        int first = table.ownerOf(slot);
        Backend b = c.get(first);
        if (eligible.test(b)) {
            return b;
        }
        if (n == 1) {
            return null;
        }
        Picking.Seen seen = Picking.Seen.clear(n);
        seen.add(first);
        int tested = 1;
        int size = table.tableSize();
        for (int step = 1; step < size && tested < n; step++) {
            int s = slot + step;
            if (s >= size) {
                s -= size;
            }
            int o = table.ownerOf(s);
            if (seen.add(o)) {
                tested++;
                Backend x = c.get(o);
                if (eligible.test(x)) {
                    return x;
                }
            }
        }
        // a table smaller than the pool leaves some backends without a slot: they can still take the request
        // rather than a 503 while they are eligible
        return tested < n ? Picking.scanFrom(c, first, eligible) : null;
    }

    /** The key, its hash and the table slot it lands on. */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        String k = key.read(request);
        long h = table.hash(k);
        int slot = table.slotOf(h);
        Placement placement = new Placement("maglev", slot, slot, table.tableSize(), table.owner(k));
        return Explanation.hashed(pick(request, Eligibility.ADMITTING), key.toString(), k, h, placement, null);
    }
}
