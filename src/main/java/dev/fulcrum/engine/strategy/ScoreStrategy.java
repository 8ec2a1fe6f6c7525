package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.BackendMetrics;
import dev.fulcrum.engine.strategy.score.ScoreFormula;
import dev.fulcrum.engine.strategy.score.ScoreFrame;
import dev.fulcrum.engine.strategy.score.Variable;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.time.Ticker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code score}: every candidate gets a score from a formula the user writes over its figures (a
 * {@link ScoreFormula}: {@code cpu}, {@code latency}, {@code inflight}, {@code errorRate}, {@code weight},
 * {@code effectiveWeight}, {@code label.NAME}), and {@code pick} chooses by score:
 * <ul>
 *   <li>{@code weighted-random}: with probability proportional to the score; a score at or below 0 is never picked
 *       while some candidate scores above 0 (when none does, every scored candidate is equally likely);</li>
 *   <li>{@code best}: the highest score, ties to the smaller id;</li>
 *   <li>{@code two-choices}: two draws weighted as in weighted-random (with replacement), the higher score wins
 *       (ties to the smaller id).</li>
 * </ul>
 *
 * <p><b>Missing and stale.</b> A candidate scores "missing" when the formula reads {@code cpu} and the backend never
 * reported metrics (or reported a cpu that is not a number), when it needs a label the backend lacks (or one that is
 * not a number where a number is needed), or when the formula's value is not a finite number (0/0, log(0),
 * sqrt(-1)); "stale" when the formula reads {@code cpu} and the last report is older than {@code staleAfterMs}.
 * {@code missing} says what such a candidate scores: {@code average} (the mean of the candidates with scores of
 * their own; 1 when none has one, so that every candidate is equally likely), {@code exclude} (never picked, unless
 * every candidate is excluded: then each is equally likely), or a number.
 *
 * <p><b>Cold start.</b> A backend that joined the running pool less than {@code coldStartMs} ago (not one present
 * when the pool started) gets at most {@code coldStartShare} of an equal share, {@code coldStartShare / n} of the
 * picks. A pick that lands on a cold backend whose share under {@code pick} would be {@code s} stands with
 * probability {@code min(1, cap / s)}; otherwise the pick is made again among the warm candidates, so the cold one's
 * share is exactly {@code min(s, cap)} and the rest goes to the warm ones in their own proportions. With every
 * candidate cold there is nobody to hand the rest to, and no cap. A first choice that cannot take the request (a
 * retry's excluded backend) is made again among those that can, with the cap taken over them ({@link #amongEligible}).
 *
 * <p><b>When scores are computed.</b> Evaluating the formula for every candidate on every pick would cost several
 * times a whole {@code adaptive} pick, so the scores, the pick weights and the cold-start caps are a table computed
 * on the pick path and kept until: a candidate's metrics report is replaced (when the formula reads {@code cpu}); a
 * report turns stale; a backend's labels are replaced (when it names any); a cold start ends; and, when the formula
 * reads one of the live figures {@code inflight}, {@code latency} or {@code errorRate}, {@link #LIVE_REFRESH_NANOS}
 * (1 ms) after it was computed. A pick then costs a clock read, a reference comparison per candidate (when the
 * formula reads reports or labels) and a binary search (two for {@code two-choices}), and allocates nothing.
 *
 * <p>Worked example: formula {@code 1 - cpu}, {@code weighted-random}, a at cpu 0.2, b at 0.6 and c with no report,
 * {@code missing: average}: a scores 0.8, b 0.4, c the average 0.6; the pick weights 0.8, 0.4, 0.6 send a 44%,
 * b 22%, c 33%. If c joined 10 s ago ({@code coldStartMs} 120000, {@code coldStartShare} 0.2), its cap is
 * 0.2 x 1/3 = 6.7%: a pick landing on c stands with probability 0.067 / 0.333 = 0.2, and the rest is drawn again
 * between a and b (2:1), so a gets 62%, b 31%, c 6.7%.
 */
final class ScoreStrategy implements Strategy {
    /** The formula when a config gives none: the example, adaptive's mix written out. */
    static final String DEFAULT_FORMULA = "1 - (0.5*cpu + 0.3*norm(latency, 0, 500) + 0.2*norm(inflight, 0, 50))";
    static final String WEIGHTED_RANDOM = "weighted-random";
    static final String BEST = "best";
    static final String TWO_CHOICES = "two-choices";
    static final List<String> PICKS = List.of(WEIGHTED_RANDOM, BEST, TWO_CHOICES);
    static final String AVERAGE = "average";
    static final String EXCLUDE = "exclude";
    static final List<String> MISSING_WORDS = List.of(AVERAGE, EXCLUDE);

    /**
     * How long a table stays when the formula reads inflight, latency or errorRate; a guess: short enough that the
     * scores follow a burst, long enough that a busy proxy evaluates the formula once per hundreds of picks.
     */
    static final long LIVE_REFRESH_NANOS = 1_000_000L;

    static final StrategyDescriptor DESCRIPTOR = new BuiltIn(StrategySpec.SCORE, "score formula",
            "A pick by a score you write over each backend's cpu, latency, in-flight requests, error rate, "
                    + "weight and labels.",
            List.of(
                    StrategyOption.formula("score", DEFAULT_FORMULA, ScoreFormula::problem, "Score",
                            "higher = more requests (e.g. 1 - cpu)", "scored %s"),
                    StrategyOption.choice("pick", WEIGHTED_RANDOM, PICKS, "Pick",
                            "weighted-random, best or two-choices", "picked by %s"),
                    StrategyOption.numberOrWord("missing", AVERAGE, MISSING_WORDS, ScoreStrategy::missingNumber,
                            "Missing", "average, exclude or a number: a backend with no score gets it",
                            "a missing score counts as %s"),
                    StrategyOption.millis("staleAfterMs", 10_000L, Limits::positiveMs, "Stale after (ms)",
                            "metrics older than this count as missing", "metrics older than %s ms ignored"),
                    StrategyOption.millis("coldStartMs", 120_000L, Limits::nonNegativeMs, "Cold start (ms)",
                            "a backend that joins is capped this long (0 = off)", "new backends capped for %s ms"),
                    StrategyOption.number("coldStartShare", 0.2, Limits::share, "Cold start share",
                            "0..1 of an equal share while cold", "at most %s of an equal share while cold")),
            true, false, (spec, c, prev, env) -> new ScoreStrategy(c, spec, env));

    private static final String STALE = "stale";
    private static final String MISSING = "missing";
    private static final String COLD = "cold-start";
    private static final byte OWN = 0;
    private static final byte IS_STALE = 1;
    private static final byte IS_MISSING = 2;

    private final Candidates c;
    private final RandomSource random;
    private final Ticker ticker;
    private final ScoreFormula formula;
    private final int mode; // 0 weighted-random, 1 best, 2 two-choices
    private final boolean exclude;
    private final double missingValue; // NaN = average
    private final long staleNanos;
    private final long coldNanos;
    private final double coldShare;
    private final int[] configuredWeights;
    private final boolean readsReports;
    private final boolean readsLabels;
    private final boolean readsLive;
    private volatile Table table;

    /**
     * The scores and pick weights as computed at {@code computedAt}, valid until {@code validUntil} while each
     * candidate's report and labels are still the ones seen.
     */
    private static final class Table {
        BackendMetrics[] seenReports;
        Map<?, ?>[] seenLabels;
        double[] scores; // what each candidate scores, NaN when excluded
        byte[] fallback; // OWN, IS_STALE, IS_MISSING
        boolean[] cold;
        double[] weights; // pick weights (weighted-random, two-choices); 0 = never drawn
        double[] starts; // prefix sums of weights, n + 1
        double[] warmStarts; // the same over the warm candidates only (cold ones 0)
        double[] accept; // the chance a pick landing here stands: 1 but for capped cold candidates
        boolean anyWarm; // a warm candidate can be picked: without one, nobody is capped
        int best; // -1 when nobody can be picked by score
        int bestWarm;
        boolean noneScored; // every candidate excluded: picks are uniform
        long validUntil;
    }

    ScoreStrategy(Candidates candidates, StrategySpec spec, StrategyEnv env) {
        this.c = candidates;
        this.random = env.random();
        this.ticker = env.ticker();
        this.formula = ScoreFormula.compile((String) spec.option("score"));
        this.mode = PICKS.indexOf((String) spec.option("pick"));
        Object missing = spec.option("missing");
        this.exclude = EXCLUDE.equals(missing);
        this.missingValue = missing instanceof Number n ? n.doubleValue() : Double.NaN;
        this.staleNanos = TimeUnit.MILLISECONDS.toNanos(spec.longValue("staleAfterMs"));
        this.coldNanos = TimeUnit.MILLISECONDS.toNanos(spec.longValue("coldStartMs"));
        this.coldShare = spec.number("coldStartShare");
        this.configuredWeights = new int[candidates.size()];
        for (int i = 0; i < candidates.size(); i++) {
            configuredWeights[i] = candidates.get(i).weight();
        }
        this.readsReports = formula.uses(Variable.CPU);
        this.readsLabels = !formula.labels().isEmpty();
        this.readsLive = formula.uses(Variable.INFLIGHT) || formula.uses(Variable.LATENCY)
                || formula.uses(Variable.ERROR_RATE);
    }

    @Override
    public String type() {
        return StrategySpec.SCORE;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        if (c.isEmpty()) {
            return null;
        }
        Table t = current();
        DecisionLog log = request.decisions();
        if (log != null) {
            record(t, log);
        }
        return choose(t, random, eligible, log, null);
    }

    /**
     * The pick {@link #pick} would make with {@code random}, and the backends it drew; the table it reads is a cache
     * of the scores (computing it moves nothing a pick depends on).
     */
    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        if (c.isEmpty()) {
            return Explanation.of(null);
        }
        Table t = current();
        DecisionLog log = request.decisions();
        if (log != null) {
            record(t, log);
        }
        List<String> drawn = new ArrayList<>();
        Backend picked = choose(t, random, Eligibility.ADMITTING, log, drawn);
        return new Explanation(picked, null, null, null, null, null, List.copyOf(drawn));
    }

    @Override
    public List<CandidateScore> candidateScores() {
        Table t = current();
        List<CandidateScore> out = new ArrayList<>(c.size());
        for (int i = 0; i < c.size(); i++) {
            double s = t.scores[i];
            out.add(new CandidateScore(c.get(i).id(), Double.isNaN(s) ? null : s, fallbackWord(t.fallback[i]),
                    t.cold[i]));
        }
        return out;
    }

    private void record(Table t, DecisionLog log) {
        for (int i = 0; i < c.size(); i++) {
            String why = fallbackWord(t.fallback[i]);
            log.score(c.get(i), t.scores[i], why == null && t.cold[i] ? COLD : why);
        }
    }

    private static String fallbackWord(byte f) {
        return f == IS_STALE ? STALE : f == IS_MISSING ? MISSING : null;
    }

    // ---------------------------------------------------------------- picking

    private Backend choose(Table t, RandomSource r, Eligibility eligible, DecisionLog log, List<String> drawn) {
        int i = byMode(t, t.starts, t.best, r, log, drawn);
        boolean coldRefused = false;
        if (t.accept[i] < 1 && !stands(t.accept[i], r, log)) {
            i = byMode(t, t.warmStarts, t.bestWarm, r, log, drawn);
            coldRefused = true;
        }
        Backend b = c.get(i);
        return eligible.test(b) ? b : amongEligible(t, r, eligible, log, coldRefused);
    }

    /** A draw that says whether a pick landing on a capped cold candidate stands (with chance {@code accept}). */
    private static boolean stands(double accept, RandomSource r, DecisionLog log) {
        double u = r.nextDouble();
        if (log != null) {
            log.draw(u);
        }
        return u < accept;
    }

    /** The mode's pick over the weights whose prefix sums are {@code starts} ({@code best} for the best one). */
    private int byMode(Table t, double[] starts, int best, RandomSource r, DecisionLog log, List<String> drawn) {
        if (mode == 1 && best >= 0) {
            return best;
        }
        int a = draw(starts, r, log, drawn);
        if (mode != 2) {
            return a;
        }
        int b = draw(starts, r, log, drawn);
        return beats(t, b, a) ? b : a;
    }

    /** Whether candidate {@code x} wins over {@code y}: a higher score, or the same and a smaller id (index). */
    private static boolean beats(Table t, int x, int y) {
        double sx = t.scores[x];
        double sy = t.scores[y];
        return sx > sy || sx == sy && x < y;
    }

    private int draw(double[] starts, RandomSource r, DecisionLog log, List<String> drawn) {
        int n = c.size();
        double u = r.nextDouble();
        if (log != null) {
            log.draw(u);
        }
        double x = u * starts[n];
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= x) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        // a candidate without weight is never drawn: x at the very end (rounding) steps back to one with weight
        while (lo > 0 && starts[lo + 1] - starts[lo] <= 0) {
            lo--;
        }
        if (drawn != null) {
            drawn.add(c.get(lo).id());
        }
        return lo;
    }

    /**
     * The first choice cannot take the request: the best eligible candidate ({@code best}), else a draw among the
     * eligible ones by pick weight (equally likely when none of them has weight). The cold-start cap holds among
     * them: a cold one chosen gets at most {@code coldStartShare} of an equal share of the eligible ones (it stands
     * with chance {@code min(1, cap / its share here)}, else the choice is made among the eligible warm ones), and
     * none at all when the first choice already refused a cold one ({@code coldRefused}). Excluded candidates stay out.
     */
    private Backend amongEligible(Table t, RandomSource r, Eligibility eligible, DecisionLog log, boolean coldRefused) {
        boolean byBest = mode == 1 && t.best >= 0;
        int i = byBest ? bestEligible(t, eligible, coldRefused) : drawEligible(t, r, eligible, log, coldRefused);
        if (i < 0 && coldRefused) { // no warm one eligible: a cold one rather than nobody
            i = byBest ? bestEligible(t, eligible, false) : drawEligible(t, r, eligible, log, false);
            return i < 0 ? null : c.get(i);
        }
        if (i < 0 || !t.cold[i] || coldRefused || !t.anyWarm) {
            return i < 0 ? null : c.get(i);
        }
        int count = 0;
        double total = 0;
        for (int k = 0; k < c.size(); k++) {
            if (drawable(t, k, eligible, false)) {
                count++;
                total += t.weights[k];
            }
        }
        double share = byBest ? 1 : total > 0 ? t.weights[i] / total : 1.0 / count;
        double cap = coldShare / count;
        if (share > cap && !stands(cap / share, r, log)) {
            int warm = byBest ? bestEligible(t, eligible, true) : drawEligible(t, r, eligible, log, true);
            i = warm >= 0 ? warm : i; // no warm one eligible: the cold one rather than nobody
        }
        return c.get(i);
    }

    /** The best-scoring eligible candidate (only a warm one when {@code warmOnly}), -1 when none. */
    private int bestEligible(Table t, Eligibility eligible, boolean warmOnly) {
        int best = -1;
        for (int i = 0; i < c.size(); i++) {
            if (drawable(t, i, eligible, warmOnly) && (best < 0 || beats(t, i, best))) {
                best = i;
            }
        }
        return best;
    }

    /** A draw by pick weight among the eligible candidates (only the warm ones when {@code warmOnly}); -1 if none. */
    private int drawEligible(Table t, RandomSource r, Eligibility eligible, DecisionLog log, boolean warmOnly) {
        int n = c.size();
        double total = 0;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (drawable(t, i, eligible, warmOnly)) {
                total += t.weights[i];
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        double u = r.nextDouble();
        if (log != null) {
            log.draw(u);
        }
        double x = total > 0 ? u * total : u * count;
        int last = -1;
        for (int i = 0; i < n; i++) {
            if (drawable(t, i, eligible, warmOnly)) {
                last = i;
                x -= total > 0 ? t.weights[i] : 1;
                if (x < 0) {
                    return i;
                }
            }
        }
        return last;
    }

    private boolean drawable(Table t, int i, Eligibility eligible, boolean warmOnly) {
        return pickable(t, i) && !(warmOnly && t.cold[i]) && eligible.test(c.get(i));
    }

    private static boolean pickable(Table t, int i) {
        return t.noneScored || !Double.isNaN(t.scores[i]);
    }

    // ---------------------------------------------------------------- the table

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
        if (readsReports) {
            for (int i = 0; i < t.seenReports.length; i++) {
                if (c.get(i).metrics() != t.seenReports[i]) {
                    return false;
                }
            }
        }
        if (readsLabels) {
            for (int i = 0; i < t.seenLabels.length; i++) {
                if (c.get(i).labels() != t.seenLabels[i]) {
                    return false;
                }
            }
        }
        return true;
    }

    private Table compute(long now) {
        int n = c.size();
        Table t = new Table();
        t.seenReports = new BackendMetrics[n];
        t.seenLabels = new Map<?, ?>[n];
        t.scores = new double[n];
        t.fallback = new byte[n];
        t.cold = new boolean[n];
        long validUntil = now + (readsLive ? LIVE_REFRESH_NANOS : Long.MAX_VALUE / 2);
        ScoreFrame f = formula.newFrame();
        List<String> labels = formula.labels();
        double sum = 0;
        int own = 0;
        for (int i = 0; i < n; i++) {
            Backend b = c.get(i);
            BackendMetrics m = b.metrics();
            t.seenReports[i] = m;
            t.seenLabels[i] = b.labels();
            long joined = b.joinedAtNanos();
            if (coldNanos > 0 && joined != Long.MIN_VALUE && now - joined < coldNanos) {
                t.cold[i] = true;
                validUntil = earlier(validUntil, joined + coldNanos);
            }
            if (readsReports) {
                if (m == null || !Double.isFinite(m.cpu())) {
                    t.fallback[i] = IS_MISSING;
                    continue;
                }
                if (now - m.atNanos() > staleNanos) {
                    t.fallback[i] = IS_STALE;
                    continue;
                }
                validUntil = earlier(validUntil, m.atNanos() + staleNanos + 1);
                f.set(Variable.CPU, Math.max(0, Math.min(1, m.cpu())));
            }
            f.set(Variable.LATENCY, b.ewma().get(now) / 1_000_000.0);
            f.set(Variable.INFLIGHT, b.inFlight());
            f.set(Variable.ERROR_RATE, formula.uses(Variable.ERROR_RATE) ? b.breaker().errorRate() : 0);
            f.set(Variable.WEIGHT, configuredWeights[i]);
            f.set(Variable.EFFECTIVE_WEIGHT, (double) c.weight(i) / Strategies.WEIGHT_SCALE);
            for (int k = 0; k < labels.size(); k++) {
                f.label(k, b.label(labels.get(k)));
            }
            double s = formula.evaluate(f);
            if (Double.isNaN(s)) {
                t.fallback[i] = IS_MISSING;
            } else {
                t.scores[i] = s;
                sum += s;
                own++;
            }
        }
        double stand = exclude ? Double.NaN : Double.isNaN(missingValue) ? (own == 0 ? 1 : sum / own) : missingValue;
        for (int i = 0; i < n; i++) {
            if (t.fallback[i] != OWN) {
                t.scores[i] = stand;
            }
        }
        t.noneScored = exclude && own == 0;
        boolean anyWarm = false; // a warm candidate that can be picked, to hand a capped cold one's rest to
        for (int i = 0; i < n; i++) {
            anyWarm |= !t.cold[i] && pickable(t, i);
        }
        t.weights = weights(t, null);
        t.starts = prefix(t.weights);
        t.warmStarts = anyWarm ? prefix(weights(t, t.cold)) : t.starts;
        t.best = best(t, null);
        t.bestWarm = anyWarm ? best(t, t.cold) : t.best;
        t.anyWarm = anyWarm;
        t.accept = accept(t, anyWarm);
        t.validUntil = validUntil;
        return t;
    }

    private static long earlier(long a, long b) {
        return b - a < 0 ? b : a;
    }

    /**
     * Pick weights: each pickable candidate's score where some candidate (not {@code left out}) scores above 0, those
     * at or below 0 getting none; 1 each when none scores above 0.
     */
    private double[] weights(Table t, boolean[] leftOut) {
        int n = c.size();
        double[] w = new double[n];
        boolean anyPositive = false;
        for (int i = 0; i < n; i++) {
            if (in(t, leftOut, i) && t.scores[i] > 0) {
                w[i] = t.scores[i];
                anyPositive = true;
            }
        }
        if (!anyPositive) {
            for (int i = 0; i < n; i++) {
                w[i] = in(t, leftOut, i) ? 1 : 0;
            }
        }
        return w;
    }

    private static boolean in(Table t, boolean[] leftOut, int i) {
        return pickable(t, i) && (leftOut == null || !leftOut[i]);
    }

    private static double[] prefix(double[] w) {
        double[] s = new double[w.length + 1];
        for (int i = 0; i < w.length; i++) {
            s[i + 1] = s[i] + w[i];
        }
        return s;
    }

    /** The highest-scoring pickable candidate not left out (ties to the smaller index), or -1 when none has a score. */
    private int best(Table t, boolean[] leftOut) {
        int best = -1;
        for (int i = 0; i < c.size(); i++) {
            if (in(t, leftOut, i) && !Double.isNaN(t.scores[i]) && (best < 0 || beats(t, i, best))) {
                best = i;
            }
        }
        return best;
    }

    /** Per candidate, the chance a pick landing on it stands: min(1, cap / share) for a cold one, 1 otherwise. */
    private double[] accept(Table t, boolean anyWarm) {
        int n = c.size();
        double[] accept = new double[n];
        Arrays.fill(accept, 1);
        if (!anyWarm) {
            return accept;
        }
        double[] share = shares(t);
        double cap = coldShare / n;
        for (int i = 0; i < n; i++) {
            if (t.cold[i] && share[i] > cap) {
                accept[i] = cap / share[i];
            }
        }
        return accept;
    }

    /** Each candidate's share of the picks under {@code pick}, before cold start. */
    private double[] shares(Table t) {
        int n = c.size();
        double total = t.starts[n];
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = t.weights[i] / total;
        }
        if (mode == 1 && t.best >= 0) {
            double[] s = new double[n];
            s[t.best] = 1;
            return s;
        }
        if (mode != 2) {
            return p;
        }
        // two draws with replacement, the better wins: P(i) = p_i^2 + 2 p_i x (the draw weight of those i beats)
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> beats(t, x, y) ? 1 : beats(t, y, x) ? -1 : 0); // worst first
        double[] s = new double[n];
        double below = 0;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            s[i] = p[i] * p[i] + 2 * p[i] * below;
            below += p[i];
        }
        return s;
    }

    private static String missingNumber(Double d) {
        return Double.isFinite(d) ? null : "must be a finite number";
    }
}
