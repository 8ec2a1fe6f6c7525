package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.PickLog;
import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.Eligibility;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.requests.Decision;
import java.util.ArrayList;
import java.util.List;

/**
 * One request's decision as it is made (docs/REFERENCE.md §5, {@code proxy.logDecisions}): what the pool's picks
 * considered, what the strategy drew and scored, the fallbacks taken, and the backends picked; {@link #decision} is
 * the value the access log and the request stream keep. Made per request only while decisions are logged, and used
 * on the exchange's I/O thread alone, so nothing here is synchronised.
 *
 * <p>Example: weighted random over a (1) and b (3) whose first attempt on b fails: pick 1 considers a and b, draws
 * 0.41 and picks b; pick 2, for attempt 2, considers a and b (b skipped: tried), draws 0.12 and picks a.
 */
final class DecisionRecorder implements PickLog {
    /** The request, whose {@code hashed} notice says what a hashing pick hashed. */
    private final ExchangeRequest request;
    private final List<Pick> picks = new ArrayList<>(1);
    /** The attempt the next pick begins (set by the exchange before it asks the pool). */
    private int nextAttempt = 1;
    private Pick current;

    DecisionRecorder(ExchangeRequest request) {
        this.request = request;
    }

    /** The next pick begins attempt {@code n} of the request's attempts (1 = the first). */
    void attempt(int n) {
        nextAttempt = n;
        current = null;
    }

    /** One pick as it is being recorded. */
    private static final class Pick {
        final int attempt;
        String strategy;
        final List<Candidate> candidates = new ArrayList<>();
        final List<Double> draws = new ArrayList<>(2);
        String fallback;
        String picked;
        String key;
        long keyHash;
        boolean done;

        Pick(int attempt) {
            this.attempt = attempt;
        }

        Candidate find(String id) {
            for (Candidate c : candidates) {
                if (c.id.equals(id)) {
                    return c;
                }
            }
            return null;
        }
    }

    private static final class Candidate {
        final String id;
        double weight;
        int inflight;
        boolean backup;
        String skipped;
        Double score;
        String fallback;

        Candidate(String id) {
            this.id = id;
        }
    }

    /** The pick being made; a strategy that writes before the pool said what it considers starts one. */
    private Pick pick() {
        if (current == null || current.done) {
            current = new Pick(current == null ? nextAttempt : current.attempt);
            picks.add(current);
        }
        return current;
    }

    @Override
    public void considering(String strategy, Candidates candidates, Eligibility eligible, boolean backup) {
        Pick p = pick();
        if (p.strategy == null) {
            p.strategy = strategy;
        }
        for (int i = 0; i < candidates.size(); i++) {
            Backend b = candidates.get(i);
            Candidate c = p.find(b.id());
            if (c == null) {
                c = new Candidate(b.id());
                p.candidates.add(c);
            }
            c.weight = (double) candidates.weight(i) / Strategies.WEIGHT_SCALE;
            c.inflight = b.inFlight();
            c.backup = backup;
            c.skipped = eligible.test(b) ? null : b.admitsAnother() ? "tried" : "busy";
        }
    }

    @Override
    public void score(Backend backend, double score, String fallback) {
        Pick p = pick();
        Candidate c = p.find(backend.id());
        if (c == null) {
            c = new Candidate(backend.id()); // scored outside the candidates the pool named: kept all the same
            c.inflight = backend.inFlight();
            p.candidates.add(c);
        }
        c.score = score;
        c.fallback = fallback;
    }

    @Override
    public void draw(double value) {
        pick().draws.add(value);
    }

    @Override
    public void fallback(String reason) {
        Pick p = pick();
        p.fallback = p.fallback == null ? reason : p.fallback + "; " + reason;
    }

    @Override
    public void picked(Backend backend) {
        Pick p = pick();
        p.picked = backend == null ? null : backend.id();
        if (request.hashedKey() != null) {
            p.key = request.hashedKey();
            p.keyHash = request.hash();
        }
        p.done = true;
    }

    /** What was recorded, or null when the request made no pick (a sticky cookie's backend answered, a refusal). */
    Decision decision() {
        if (picks.isEmpty()) {
            return null;
        }
        List<Decision.Pick> out = new ArrayList<>(picks.size());
        for (Pick p : picks) {
            List<Decision.Candidate> cs = new ArrayList<>(p.candidates.size());
            for (Candidate c : p.candidates) {
                cs.add(new Decision.Candidate(c.id, c.weight, c.inflight, c.backup, c.skipped, c.score, c.fallback));
            }
            out.add(new Decision.Pick(p.attempt, p.strategy, cs, p.draws, p.fallback, p.picked, p.key, p.keyHash));
        }
        return new Decision(out);
    }
}
