package dev.fulcrum.engine;

import dev.fulcrum.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;

/**
 * "Why this backend?": the step-by-step account of one routing decision, for the workshop's step mode and
 * for anyone puzzled by where a request went. {@link #explain} takes a pool and a request and returns:
 * the strategy, the key and its 64-bit hash (hashing strategies), where the hash lands (ring point and its
 * owner, Maglev slot and its owner, or ip-hash's position on the weight line), which members were filtered
 * out of the snapshot and why, the candidates with their weights and in-flight counts, the draws of
 * power-of-two, and the backend picked.
 *
 * <p>The pick is the strategy's pick on the pool's current snapshot with no lease taken: in-flight counts are
 * untouched. Round robin and smooth WRR pick with a twin that starts where the live strategy is, so the answer is
 * where the next request would go and the pool's own position does not move. For {@code power-of-two} the draws
 * are observed by picking with a twin strategy (same candidates, same choices) whose randomness is recorded; pass a
 * seeded {@link RandomSource} for reproducible traces. A request carrying a valid sticky cookie goes to the backend
 * it names while that one can take it, as in the proxy: pass that id ({@code stickyCookie}).
 *
 * <p>Example: consistent hashing on {@code path}, request {@code GET /k/k42}: key {@code /k/k42}, hash
 * {@code 0x5c1e...}, first ring point clockwise at {@code 0x5c3a...} owned by {@code b}; {@code c} filtered
 * (DRAINING), {@code d} filtered (WEIGHT_ZERO); candidates a, b; picked {@code b}.
 *
 * @param pool       the pool's name
 * @param strategy   the strategy type (docs/REFERENCE.md §2.2)
 * @param hashKey    the configured key ({@code ip}, {@code path}, {@code header:NAME} ...), null for
 *                   strategies that do not hash
 * @param key        the value hashed (the client IP when the configured part is missing), or null
 * @param keyHash    its 64-bit hash, or null
 * @param placement  where the hash lands, or null
 * @param boundedLoadCap consistent hashing with bounded loads: the most requests the key's owner may have in flight
 *                   right now ({@code ceil(balanceFactor x (poolInFlight + 1) x weight / totalWeight)}); null when off
 * @param filtered   members that are not candidates, each with every reason that applies, sorted by id
 * @param candidates the candidates in id order (backups after primaries)
 * @param draws      power-of-two: the backends drawn, in draw order; empty otherwise (or when unknown)
 * @param picked     the backend picked, or null (the proxy would answer 503)
 * @param fromBackup true when no primary could take it and a backup did
 * @param panic      true when every primary was ejected and ejections are being ignored (they are candidates)
 * @param stickyCookie the backend the request's sticky cookie names, or null
 * @param summary    one or two sentences saying the above in words
 */
public record DecisionTrace(String pool, String strategy, String hashKey, String key, Long keyHash,
                            Placement placement, Integer boundedLoadCap, List<Filtered> filtered, List<Candidate> candidates,
                            List<String> draws, String picked, boolean fromBackup, boolean panic, String stickyCookie,
                            String summary) {

    /** Why a member is not a candidate (PoolSnapshot's filter, exactly). */
    public enum Reason { DOWN, EJECTED, DRAINING, DRAINED, BREAKER_OPEN, WEIGHT_ZERO }

    public record Filtered(String backend, List<Reason> reasons) {
    }

    /**
     * @param weight          configured weight
     * @param effectiveWeight the weight the strategy uses, in hundredths (slow start applied; see
     *                        {@link Strategies#WEIGHT_SCALE}); the configured weight under a weight-blind
     *                        strategy, which applies no slow start
     * @param admitting       under its in-flight cap and admitted by its breaker now (else skipped per pick)
     * @param ewmaMs          peak-EWMA latency in ms (fastest-response's measure), or null before any sample
     */
    public record Candidate(String backend, int weight, int effectiveWeight, int inFlight, Integer maxInFlight,
                            CircuitBreaker.State breaker, boolean admitting, boolean backup, Double ewmaMs) {
    }

    /**
     * @param kind     {@code ring} (consistent-hash), {@code maglev} or {@code weight-line} (ip-hash)
     * @param index    ring point index, table slot, or position on the weight line
     * @param position ring: the point's 64-bit hash; maglev: the slot; ip-hash: the hash mod the total weight
     * @param size     ring points, table size, or total weight
     * @param owner    the backend owning that place (before any ineligibility walk)
     */
    public record Placement(String kind, long index, long position, long size, String owner) {
    }

    public static DecisionTrace explain(Pool pool, RequestContext request) {
        return explain(pool, request, RandomSource.threadLocal());
    }

    /**
     * @param random used only by power-of-two's twin pick (see the class comment)
     */
    public static DecisionTrace explain(Pool pool, RequestContext request, RandomSource random) {
        return explain(pool, request, random, null);
    }

    /**
     * @param stickyCookie the backend a valid sticky cookie on the request names (the proxy's reading of it), or null
     */
    public static DecisionTrace explain(Pool pool, RequestContext request, RandomSource random, String stickyCookie) {
        PoolSnapshot s = pool.snapshot();
        String type = s.spec().type();
        Set<String> candidateIds = new TreeSet<>();
        List<Candidate> candidates = new ArrayList<>();
        addCandidates(s.primaryCandidates(), s, false, candidates, candidateIds);
        addCandidates(s.backupCandidates(), s, true, candidates, candidateIds);

        List<Filtered> filtered = new ArrayList<>();
        for (BackendView v : s.all()) {
            if (candidateIds.contains(v.id())) {
                continue;
            }
            List<Reason> reasons = new ArrayList<>();
            switch (v.state()) {
                case DOWN -> reasons.add(Reason.DOWN);
                case EJECTED -> reasons.add(Reason.EJECTED);
                case DRAINING -> reasons.add(Reason.DRAINING);
                case DRAINED -> reasons.add(Reason.DRAINED);
                default -> { }
            }
            if (v.breaker() == CircuitBreaker.State.OPEN) {
                reasons.add(Reason.BREAKER_OPEN);
            }
            if (v.weight() == 0) {
                reasons.add(Reason.WEIGHT_ZERO);
            }
            filtered.add(new Filtered(v.id(), List.copyOf(reasons)));
        }

        String hashKey = null;
        String key = null;
        Long keyHash = null;
        Placement placement = null;
        Integer cap = null;
        Strategy primary = s.primary();
        Candidates pc = s.primaryCandidates();
        if (primary.keySpace() instanceof HashRing ring) {
            HashKey hk = HashKey.parse(s.spec().key());
            hashKey = hk.toString();
            key = hk.read(request);
            keyHash = ring.hash(key);
            int p = ring.pointAt(keyHash);
            if (p >= 0) {
                placement = new Placement("ring", p, ring.points().get(p).hash(), ring.size(),
                        ring.points().get(p).backend());
                if (primary instanceof ConsistentHash ch) {
                    cap = ch.capOf(placement.owner()); // the owner's: caps follow weights
                }
            }
        } else if (primary.keySpace() instanceof MaglevTable table) {
            HashKey hk = HashKey.parse(s.spec().key());
            hashKey = hk.toString();
            key = hk.read(request);
            keyHash = table.hash(key);
            int slot = table.slotOf(keyHash);
            placement = new Placement("maglev", slot, slot, table.tableSize(), table.owner(key));
        } else if (StrategySpec.IP_HASH.equals(type)) {
            hashKey = "ip";
            key = request.clientIp() == null ? "" : request.clientIp();
            keyHash = XxHash64.hash(key);
            if (!pc.isEmpty()) {
                long[] starts = Picking.starts(pc.weights());
                boolean uniform = Picking.allEqual(pc.weights());
                long pos = uniform ? XxHash64.mod(keyHash, pc.size()) : Long.remainderUnsigned(keyHash, starts[pc.size()]);
                int idx = uniform ? (int) pos : Picking.segment(starts, pos);
                placement = new Placement("weight-line", idx, pos, uniform ? pc.size() : starts[pc.size()],
                        pc.get(idx).id());
            }
        }

        List<String> draws = List.of();
        Backend picked;
        boolean fromBackup = false;
        if (StrategySpec.POWER_OF_TWO.equals(type) && !pc.isEmpty()) {
            RecordingRandom rec = new RecordingRandom(random);
            Strategy twin = Strategies.create(s.spec(), pc, null,
                    new StrategyEnv(Ticker.system(), rec, inFlight(pool.inFlight())));
            picked = twin.pick(request, Eligibility.ADMITTING);
            draws = reconstructDraws(pc, s.spec().choices(), rec, picked);
        } else {
            picked = peek(primary, s.spec(), pc, request);
        }
        if (picked == null && s.backup() != null) {
            picked = peek(s.backup(), s.spec(), s.backupCandidates(), request);
            fromBackup = picked != null;
        }
        String pickedId = picked == null ? null : picked.id();
        // as Pool.tryLease: the cookie's backend, while it can take the request (a backup only while no primary can)
        boolean anyPrimaryAdmits = candidates.stream().anyMatch(c -> !c.backup() && c.admitting());
        Candidate sticky = stickyCookie == null ? null : candidates.stream()
                .filter(c -> c.backend().equals(stickyCookie) && c.admitting() && (!c.backup() || !anyPrimaryAdmits))
                .findFirst().orElse(null);
        String summary = summary(type, key, keyHash, placement, cap, filtered, candidates, draws, pickedId, fromBackup,
                s.panic());
        if (sticky != null) {
            pickedId = sticky.backend();
            fromBackup = sticky.backup();
            summary = "The sticky cookie names " + pickedId + ", which can take the request: it goes there, the "
                    + "strategy is not asked (it would say: " + summary + ")";
        } else if (stickyCookie != null) {
            summary = "The sticky cookie names " + stickyCookie + ", which cannot take the request now; so: " + summary;
        }
        return new DecisionTrace(s.pool(), type, hashKey, key, keyHash, placement, cap, List.copyOf(filtered),
                List.copyOf(candidates), draws, pickedId, fromBackup, s.panic(), stickyCookie, summary);
    }

    private static void addCandidates(Candidates c, PoolSnapshot s, boolean backup, List<Candidate> out,
                                      Set<String> ids) {
        for (int i = 0; i < c.size(); i++) {
            Backend b = c.get(i);
            int configured = 0;
            for (BackendView v : s.all()) {
                if (v.id().equals(b.id())) {
                    configured = v.weight(); // the snapshot's view: the live field belongs to the control thread
                }
            }
            PeakEwma e = b.ewma();
            // a weight-blind strategy reads no weight: show the configured one, not a slow-start ramp it ignores
            int effective = s.spec().readsWeights() ? c.weight(i) : configured * Strategies.WEIGHT_SCALE;
            out.add(new Candidate(b.id(), configured, effective, b.inFlight(),
                    b.maxInFlight() == 0 ? null : b.maxInFlight(), b.breaker().state(), b.admitsAnother(), backup,
                    e.hasSamples() ? e.get() / 1e6 : null));
            ids.add(b.id());
        }
    }

    /**
     * Replays power-of-two's draws from the recorded random values: draw k takes a uniform index among the
     * candidates not drawn yet (or a point on the weight line with the drawn segments cut out). The result
     * is checked against the pick; if they disagree (the strategy changed how it draws), no draws are shown
     * rather than wrong ones.
     */
    static List<String> reconstructDraws(Candidates c, Integer choicesOrNull, RecordingRandom rec, Backend picked) {
        int n = c.size();
        int choices = choicesOrNull == null ? 2 : choicesOrNull;
        if (choices >= n) {
            List<String> all = new ArrayList<>();
            c.backends().forEach(b -> all.add(b.id()));
            return all; // every candidate is considered: a full least-requests scan
        }
        boolean uniform = Picking.allEqual(c.weights());
        long[] starts = Picking.starts(c.weights());
        List<Integer> drawn = new ArrayList<>(); // sorted ascending, as the strategy keeps them
        List<String> order = new ArrayList<>();
        long excluded = 0;
        for (int k = 0; k < choices; k++) {
            if (k >= rec.values.size()) {
                return List.of();
            }
            long v = rec.values.get(k);
            int idx;
            if (uniform) {
                idx = (int) v;
                for (int d : drawn) {
                    if (d <= idx) {
                        idx++;
                    }
                }
            } else {
                long r = v;
                for (int d : drawn) {
                    if (r >= starts[d]) {
                        r += c.weight(d);
                    }
                }
                idx = Picking.segment(starts, r);
            }
            int pos = 0;
            while (pos < drawn.size() && drawn.get(pos) < idx) {
                pos++;
            }
            drawn.add(pos, idx);
            excluded += c.weight(idx);
            order.add(c.get(idx).id());
        }
        boolean anyEligible = false;
        for (int d : drawn) {
            anyEligible |= c.get(d).admitsAnother();
        }
        boolean consistent = picked == null ? !anyEligible : order.contains(picked.id()) || !anyEligible;
        return consistent ? List.copyOf(order) : List.of();
    }

    /** Records what a strategy draws (nextInt and nextLong results, in order). */
    static final class RecordingRandom implements RandomSource {
        private final RandomSource inner;
        final List<Long> values = new ArrayList<>();

        RecordingRandom(RandomSource inner) {
            this.inner = inner;
        }

        @Override
        public int nextInt(int bound) {
            int v = inner.nextInt(bound);
            values.add((long) v);
            return v;
        }

        @Override
        public long nextLong(long bound) {
            long v = inner.nextLong(bound);
            values.add(v);
            return v;
        }

        @Override
        public double nextDouble() {
            return inner.nextDouble();
        }
    }

    private static String summary(String type, String key, Long hash, Placement placement, Integer cap,
                                  List<Filtered> filtered,
                                  List<Candidate> candidates, List<String> draws, String picked, boolean fromBackup,
                                  boolean panic) {
        StringBuilder sb = new StringBuilder(type).append(": ");
        if (key != null) {
            sb.append("key '").append(key).append("' hashes to ").append(hex(hash));
            if (placement != null) {
                switch (placement.kind()) {
                    case "ring" -> sb.append(", first ring point clockwise ").append(hex(placement.position()))
                            .append(" (point ").append(placement.index()).append(" of ").append(placement.size())
                            .append(") belongs to ").append(placement.owner());
                    case "maglev" -> sb.append(", slot ").append(placement.index()).append(" of ")
                            .append(placement.size()).append(" belongs to ").append(placement.owner());
                    default -> sb.append(", position ").append(placement.position()).append(" of ")
                            .append(placement.size()).append(" on the weight line belongs to ").append(placement.owner());
                }
            }
            sb.append("; ");
        }
        if (!filtered.isEmpty()) {
            sb.append("filtered out: ");
            for (int i = 0; i < filtered.size(); i++) {
                Filtered f = filtered.get(i);
                sb.append(i == 0 ? "" : ", ").append(f.backend()).append(" (")
                        .append(String.join(", ", f.reasons().stream().map(Enum::name).toList())).append(')');
            }
            sb.append("; ");
        }
        sb.append(candidates.size()).append(candidates.size() == 1 ? " candidate" : " candidates");
        if (cap != null) {
            sb.append("; bounded loads: at most ").append(cap).append(" in flight for ")
                    .append(placement == null ? "the key's owner" : placement.owner()).append(" (its weight's share)");
        }
        if (panic) {
            sb.append(" (panic: every primary ejected, ejections ignored)");
        }
        if (!draws.isEmpty()) {
            sb.append("; drew ").append(String.join(" and ", draws));
        }
        if (picked == null) {
            sb.append("; no backend can take the request (503)");
        } else {
            sb.append("; picked ").append(picked);
            if (fromBackup) {
                sb.append(" (a backup: no primary could take it)");
            } else if (placement != null && !picked.equals(placement.owner())) {
                sb.append(" (").append(placement.owner()).append(cap != null ? " was at the load cap or" : "")
                        .append(" could not take it now)");
            }
        }
        return sb.append('.').toString();
    }

    /**
     * The live strategy's pick, for the stateless ones; round robin and smooth WRR pick with a twin that starts where
     * the live one is, so explaining moves no real request along.
     */
    private static Backend peek(Strategy live, StrategySpec spec, Candidates c, RequestContext request) {
        if (live instanceof RoundRobin || live instanceof SmoothWeightedRoundRobin) {
            return Strategies.create(spec, c, live, StrategyEnv.of(Ticker.system(), RandomSource.threadLocal()))
                    .pick(request, Eligibility.ADMITTING);
        }
        return live.pick(request, Eligibility.ADMITTING);
    }

    private static String hex(Long h) {
        return h == null ? "-" : String.format(Locale.ROOT, "0x%016x", h);
    }

    private static LongAdder inFlight(int n) {
        LongAdder a = new LongAdder();
        a.add(n);
        return a;
    }
}
