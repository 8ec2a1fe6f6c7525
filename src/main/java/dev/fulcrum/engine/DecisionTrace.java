package dev.fulcrum.engine;

import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.DecisionLog;
import dev.fulcrum.engine.strategy.Explanation;
import dev.fulcrum.engine.strategy.LoggedRequest;
import dev.fulcrum.engine.strategy.Placement;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * "Why this backend?": the step-by-step account of one routing decision, for the workshop's step mode and
 * for anyone puzzled by where a request went. {@link #explain} takes a pool and a request and returns:
 * the strategy, the key and its 64-bit hash (hashing strategies), where the hash lands (ring point and its
 * owner, Maglev slot and its owner, or ip-hash's position on the weight line), which members were filtered
 * out of the snapshot and why, the candidates with their weights and in-flight counts, the draws of
 * power-of-two, and the backend picked.
 *
 * <p>The pick is the strategy's own account ({@link Strategy#explain}) on the pool's current snapshot with no lease
 * taken: in-flight counts, round-robin positions and smooth-WRR weights are untouched, so the answer is where the
 * next request would go. Strategies that draw at random draw from the {@link RandomSource} given; pass a seeded one
 * for reproducible traces. A request carrying a valid sticky cookie goes to the backend it names while that one can
 * take it, as in the proxy: pass that id ({@code stickyCookie}).
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
 * @param scores     the score the strategy gave each candidate it scored (adaptive, power-of-two's drawn ones, a score
 *                   strategy), with the fallback that stood in for a score of its own; empty when it scores nothing
 * @param fallbacks  why the pick did not come from the configured strategy (a plugin that failed); empty otherwise
 */
public record DecisionTrace(String pool, String strategy, String hashKey, String key, Long keyHash,
                            Placement placement, Integer boundedLoadCap, List<Filtered> filtered, List<Candidate> candidates,
                            List<String> draws, String picked, boolean fromBackup, boolean panic, String stickyCookie,
                            String summary, List<Scored> scores, List<String> fallbacks) {

    /** A trace without scores or fallbacks. */
    public DecisionTrace(String pool, String strategy, String hashKey, String key, Long keyHash, Placement placement,
                         Integer boundedLoadCap, List<Filtered> filtered, List<Candidate> candidates, List<String> draws,
                         String picked, boolean fromBackup, boolean panic, String stickyCookie, String summary) {
        this(pool, strategy, hashKey, key, keyHash, placement, boundedLoadCap, filtered, candidates, draws, picked,
                fromBackup, panic, stickyCookie, summary, List.of(), List.of());
    }

    /**
     * One candidate's score as the strategy gave it ({@link DecisionLog#score}).
     *
     * @param fallback null when the score is the backend's own; else why another stood in ({@code stale},
     *                 {@code missing}, {@code cold-start})
     */
    public record Scored(String backend, double score, String fallback) {
    }

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

    public static DecisionTrace explain(Pool pool, RequestContext request) {
        return explain(pool, request, RandomSource.threadLocal());
    }

    /**
     * @param random what a strategy that draws at random draws from (see the class comment)
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

        // the strategy says where the request goes and how it came to that, moving nothing a real pick moves; what it
        // scores and any fallback it takes are heard through the request's decision log
        Heard heard = new Heard();
        RequestContext heardRequest = new LoggedRequest(request, heard);
        Explanation x = s.primary().explain(heardRequest, random);
        Backend picked = x.picked();
        boolean fromBackup = false;
        if (picked == null && s.backup() != null) {
            picked = s.backup().explain(heardRequest, random).picked();
            fromBackup = picked != null;
        }
        String hashKey = x.hashKey();
        String key = x.key();
        Long keyHash = x.keyHash();
        Placement placement = x.placement();
        Integer cap = x.boundedLoadCap();
        List<String> draws = x.draws();
        String pickedId = picked == null ? null : picked.id();
        // as Pool.tryLease: the cookie's backend, while it can take the request (a backup only while no primary can)
        boolean anyPrimaryAdmits = candidates.stream().anyMatch(c -> !c.backup() && c.admitting());
        Candidate sticky = stickyCookie == null ? null : candidates.stream()
                .filter(c -> c.backend().equals(stickyCookie) && c.admitting() && (!c.backup() || !anyPrimaryAdmits))
                .findFirst().orElse(null);
        String summary = summary(type, key, keyHash, placement, cap, filtered, candidates, draws, pickedId, fromBackup,
                s.panic(), heard.scores, heard.fallbacks);
        if (sticky != null) {
            pickedId = sticky.backend();
            fromBackup = sticky.backup();
            summary = "The sticky cookie names " + pickedId + ", which can take the request: it goes there, the "
                    + "strategy is not asked (it would say: " + summary + ")";
        } else if (stickyCookie != null) {
            summary = "The sticky cookie names " + stickyCookie + ", which cannot take the request now; so: " + summary;
        }
        return new DecisionTrace(s.pool(), type, hashKey, key, keyHash, placement, cap, List.copyOf(filtered),
                List.copyOf(candidates), draws, pickedId, fromBackup, s.panic(), stickyCookie, summary,
                List.copyOf(heard.scores), List.copyOf(heard.fallbacks));
    }

    /** The decision log of the request as the strategy reads it: keeps the scores and fallbacks it writes. */
    private static final class Heard implements DecisionLog {
        final List<Scored> scores = new ArrayList<>();
        final List<String> fallbacks = new ArrayList<>();

        @Override
        public void score(Backend backend, double score, String fallback) {
            scores.removeIf(s -> s.backend().equals(backend.id())); // a strategy that picks twice scores twice
            scores.add(new Scored(backend.id(), score, fallback));
        }

        @Override
        public void draw(double value) {
            // the draws this account shows are the backends drawn (Explanation.draws), not the numbers
        }

        @Override
        public void fallback(String reason) {
            fallbacks.add(reason);
        }
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

    private static String summary(String type, String key, Long hash, Placement placement, Integer cap,
                                  List<Filtered> filtered,
                                  List<Candidate> candidates, List<String> draws, String picked, boolean fromBackup,
                                  boolean panic, List<Scored> scores, List<String> fallbacks) {
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
        if (!scores.isEmpty()) {
            sb.append("; scored ");
            for (int i = 0; i < scores.size(); i++) {
                Scored s = scores.get(i);
                String score = String.format(Locale.ROOT, "%.3f", s.score()).replaceAll("0+$", "");
                sb.append(i == 0 ? "" : ", ").append(s.backend()).append(' ')
                        .append(score.endsWith(".") ? score.substring(0, score.length() - 1) : score);
                if (s.fallback() != null) {
                    sb.append(" (").append(fallbackWords(s.fallback())).append(')');
                }
            }
        }
        for (String f : fallbacks) {
            sb.append("; the configured strategy did not pick (").append(f).append("), the pool's fallback did");
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

    /** Why a stand-in score was used, in words. */
    private static String fallbackWords(String fallback) {
        return switch (fallback) {
            case "stale" -> "a stand-in: its metrics were stale";
            case "missing" -> "a stand-in: it reported no metrics";
            case "cold-start" -> "a stand-in: a cold start, no history yet";
            default -> "a stand-in: " + fallback;
        };
    }

    private static String hex(Long h) {
        return h == null ? "-" : String.format(Locale.ROOT, "0x%016x", h);
    }
}
