package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendMetrics;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;
import dev.fulcrum.time.Ticker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code adaptive}: a weighted random pick whose weights follow what the backends report about themselves
 * ({@link Backend#metrics()}: cpu, requests in flight, latency). Each metric is normalised to 0..1 across the
 * pool by dividing by the pool's maximum, and the three are combined with {@code weights} (default cpu 0.5,
 * latency 0.3, inflight 0.2) into a score in 0..1, higher = busier. A backend is then drawn with probability
 * proportional to {@code effective weight x (1 - score + FLOOR)}.
 *
 * <p>Example, equal weights, a at cpu 0.8 / 100 ms / 8 in flight and b at cpu 0.4 / 50 ms / 2: a scores
 * 0.5 x 1 + 0.3 x 1 + 0.2 x 1 = 1.0, b scores 0.5 x 0.5 + 0.3 x 0.5 + 0.2 x 0.25 = 0.45, so the pick weights
 * are 0.1 and 0.65: b takes about 87% of requests, a still 13%. Never winner-takes-all: a backend whose
 * load drops must still get requests for its reports to show it, and several balancers reading the same
 * reports must not all stampede onto the one that looked best.
 *
 * <p>A backend with no report, or one older than {@code staleAfterMs}, gets the average score of the
 * backends with fresh reports (or 0 for all when no report is fresh: plain weighted random). The pick
 * weights are computed once and cached until a backend reports again or a report goes stale, so a pick
 * costs n reference comparisons and a binary search, and allocates nothing.
 */
final class Adaptive implements Strategy {
    /** The score's metric weights when a config gives none. */
    static final Map<String, Double> DEFAULT_WEIGHTS = defaultWeights();

    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.ADAPTIVE, "adaptive (live metrics)",
            "A weighted-random pick scored from each backend's live CPU, latency "
                    + "and in-flight metrics (read from /metrics.json).",
            List.of(
                    new StrategyOption("weights", StrategyOption.Kind.NUMBER_MAP, DEFAULT_WEIGHTS,
                            Adaptive::metricWeights, "Weights",
                            "the score's metric weights, e.g. cpu 0.5, latency 0.3, inflight 0.2", "scored %s"),
                    StrategyOption.millis("staleAfterMs", 10_000L, Limits::positiveMs, "Stale after (ms)",
                            "metrics older than this count as missing", "metrics older than %s ms ignored")),
            true, false, (spec, c, prev, env) -> new Adaptive(c, spec, env));

    /** Why a candidate has the average score (see {@link DecisionLog#score}): its report is too old, or none. */
    static final String STALE = "stale";
    static final String MISSING = "missing";

    /** Added to {@code 1 - score} so the busiest backend keeps a share; a guess: 10% of an idle one's. */
    static final double FLOOR = 0.1;

    private final Candidates c;
    private final RandomSource random;
    private final Ticker ticker;
    private final double wCpu;
    private final double wLatency;
    private final double wInflight;
    private final long staleNanos;
    private volatile Table table;

    /**
     * The pick weights as computed from {@code seen} (one report per candidate), valid until validUntil;
     * {@code fallbacks[i]} says why candidate i has the average score instead of its own ({@code stale},
     * {@code missing}), null when the score is its own.
     */
    private record Table(BackendMetrics[] seen, double[] scores, String[] fallbacks, double[] starts, long validUntil) {
    }

    Adaptive(Candidates candidates, StrategySpec spec, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
        this.ticker = env.ticker();
        Map<String, Double> w = spec.numberMap("weights");
        double cpu = w.getOrDefault("cpu", 0.0);
        double lat = w.getOrDefault("latency", 0.0);
        double inf = w.getOrDefault("inflight", 0.0);
        double sum = cpu + lat + inf;
        this.wCpu = cpu / sum;
        this.wLatency = lat / sum;
        this.wInflight = inf / sum;
        this.staleNanos = TimeUnit.MILLISECONDS.toNanos(spec.longValue("staleAfterMs"));
    }

    @Override
    public String type() {
        return StrategySpec.ADAPTIVE;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        int n = c.size();
        if (n == 0) {
            return null;
        }
        Table t = current();
        // with the request's decision recorded (proxy.logDecisions), each candidate's score and the draw go to it;
        // off, this is one null check
        DecisionLog log = request.decisions();
        if (log != null) {
            for (int i = 0; i < n; i++) {
                log.score(c.get(i), t.scores[i], t.fallbacks[i]);
            }
        }
        RandomSource rnd = RecordedDraws.of(random, log);
        double[] starts = t.starts;
        double r = rnd.nextDouble() * starts[n];
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= r) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Backend b = c.get(lo);
        return eligible.test(b) ? b : amongEligible(t, eligible, rnd);
    }

    /** The same weighted draw restricted to the eligible candidates. */
    private Backend amongEligible(Table t, Eligibility eligible, RandomSource random) {
        int n = c.size();
        double total = 0;
        for (int i = 0; i < n; i++) {
            if (eligible.test(c.get(i))) {
                total += t.starts[i + 1] - t.starts[i];
            }
        }
        if (total <= 0) {
            return null;
        }
        double r = random.nextDouble() * total;
        Backend last = null;
        for (int i = 0; i < n; i++) {
            Backend b = c.get(i);
            if (eligible.test(b)) {
                last = b;
                r -= t.starts[i + 1] - t.starts[i];
                if (r < 0) {
                    return b;
                }
            }
        }
        return last;
    }

    /** Each candidate's score (0..1, higher = busier) as of now, by candidate index; for tests and the UI. */
    double[] scores() {
        return current().scores.clone();
    }

    private Table current() {
        Table t = table;
        long now = ticker.nanos();
        if (t != null && now - t.validUntil < 0 && unchanged(t)) {
            return t;
        }
        t = compute(now);
        table = t; // racing threads compute the same thing; the last write wins
        return t;
    }

    private boolean unchanged(Table t) {
        for (int i = 0; i < t.seen.length; i++) {
            if (c.get(i).metrics() != t.seen[i]) {
                return false;
            }
        }
        return true;
    }

    private Table compute(long now) {
        int n = c.size();
        BackendMetrics[] seen = new BackendMetrics[n];
        boolean[] fresh = new boolean[n];
        double maxCpu = 0;
        double maxLatency = 0;
        double maxInflight = 0;
        long validUntil = now + Long.MAX_VALUE / 2; // "no deadline", safely comparable by subtraction
        for (int i = 0; i < n; i++) {
            BackendMetrics m = c.get(i).metrics();
            seen[i] = m;
            // a report that is not a number counts as no report (NaN in one score would make every pick candidate 0)
            if (m != null && now - m.atNanos() <= staleNanos && Double.isFinite(m.cpu()) && Double.isFinite(m.latencyMs())) {
                fresh[i] = true;
                maxCpu = Math.max(maxCpu, clamp(m.cpu()));
                maxLatency = Math.max(maxLatency, Math.max(0, m.latencyMs()));
                maxInflight = Math.max(maxInflight, Math.max(0, m.inflight()));
                long expires = m.atNanos() + staleNanos + 1;
                if (expires - validUntil < 0) {
                    validUntil = expires;
                }
            }
        }
        double[] scores = new double[n];
        String[] fallbacks = new String[n];
        double sum = 0;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (fresh[i]) {
                BackendMetrics m = seen[i];
                scores[i] = wCpu * ratio(clamp(m.cpu()), maxCpu) + wLatency * ratio(Math.max(0, m.latencyMs()), maxLatency)
                        + wInflight * ratio(Math.max(0, m.inflight()), maxInflight);
                sum += scores[i];
                count++;
            }
        }
        double average = count == 0 ? 0 : sum / count;
        double[] starts = new double[n + 1];
        for (int i = 0; i < n; i++) {
            if (!fresh[i]) {
                scores[i] = average;
                BackendMetrics m = seen[i];
                boolean reported = m != null && Double.isFinite(m.cpu()) && Double.isFinite(m.latencyMs());
                fallbacks[i] = reported ? STALE : MISSING;
            }
            starts[i + 1] = starts[i] + c.weight(i) * (1 - scores[i] + FLOOR);
        }
        return new Table(seen, scores, fallbacks, starts, validUntil);
    }

    private static double clamp(double cpu) {
        return Math.max(0, Math.min(1, cpu));
    }

    private static double ratio(double x, double max) {
        return max > 0 ? x / max : 0;
    }

    private static Map<String, Double> defaultWeights() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("cpu", 0.5);
        m.put("latency", 0.3);
        m.put("inflight", 0.2);
        return Collections.unmodifiableMap(m);
    }

    /** The problems with a {@code weights} object: unknown metrics, bad weights, none above 0. */
    private static List<Violation> metricWeights(Object value) {
        Map<String, Number> weights = new TreeMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> weights.put((String) k, (Number) v)); // kinds checked by Strategies
        List<Violation> out = new ArrayList<>();
        boolean anyPositive = false;
        for (Map.Entry<String, Number> e : weights.entrySet()) {
            String field = "weights." + e.getKey();
            Double w = e.getValue() == null ? null : e.getValue().doubleValue();
            if (!Limits.ADAPTIVE_METRICS.contains(e.getKey())) {
                out.add(new Violation(field, "unknown metric, one of " + String.join(", ", Limits.ADAPTIVE_METRICS),
                        e.getKey()));
            } else if (Limits.metricWeight(w) != null) {
                out.add(new Violation(field, Limits.metricWeight(w), e.getValue()));
            } else if (w > 0) {
                anyPositive = true;
            }
        }
        if (weights.isEmpty()) {
            out.add(new Violation("weights", "must name at least one of " + String.join(", ", Limits.ADAPTIVE_METRICS),
                    "{}"));
        } else if (!anyPositive && Limits.ADAPTIVE_METRICS.containsAll(weights.keySet())) {
            out.add(new Violation("weights", "at least one weight must be greater than 0", value.toString()));
        }
        return out;
    }
}
