package dev.fulcrum.requests;

import dev.fulcrum.rules.JsonText;
import java.util.List;

/**
 * How a request's backend was chosen, recorded when {@code proxy.logDecisions} is on (docs/REFERENCE.md §5, "the
 * decision"): one {@link Pick} per time the pool asked its strategy, so a retried request has two. The access log
 * writes it as its line's {@code "decision"} and {@code /api/requests} sends the same JSON ({@link #toJson}).
 *
 * <p>Example, weighted random over a (weight 1) and b (weight 3), one draw at 0.412 of the weight line, which falls in
 * b's segment [0.25, 1):
 * <pre>
 * {"picks":[{"attempt":1,"strategy":"weighted-random","candidates":[{"id":"a","weight":1,"inflight":0},
 *   {"id":"b","weight":3,"inflight":2}],"draws":[0.412],"fallback":null,"picked":"b"}]}
 * </pre>
 *
 * @param picks every pick of the request, in order
 */
public record Decision(List<Pick> picks) {
    public Decision {
        picks = List.copyOf(picks);
    }

    /**
     * One pick: the strategy asked, what it chose among, what it drew and scored, and what it chose.
     *
     * @param attempt    the place in the request's {@code attempts} (1 = the first) of the try this pick began; a
     *                   sticky cookie's first try is no pick, so a sticky request's retry is pick {@code attempt} 2
     * @param strategy   the strategy type (docs/REFERENCE.md §2.2)
     * @param candidates the pool's candidates as the pick saw them (backups after primaries, when the backups were
     *                   asked)
     * @param draws      the random draws the strategy made, each in [0, 1) before scaling, in order
     * @param fallback   why the pick did not come from the configured strategy (a plugin that failed), or null
     * @param picked     the backend picked, or null when none could take the request
     * @param key        what a hashing strategy hashed, or null
     * @param keyHash    its 64-bit hash (unsigned), meaningful only when {@code key} is set
     */
    public record Pick(int attempt, String strategy, List<Candidate> candidates, List<Double> draws, String fallback,
                       String picked, String key, long keyHash) {
        public Pick {
            candidates = List.copyOf(candidates);
            draws = List.copyOf(draws);
        }

        /** The candidate with this id, or null. */
        public Candidate candidate(String id) {
            for (Candidate c : candidates) {
                if (c.id().equals(id)) {
                    return c;
                }
            }
            return null;
        }
    }

    /**
     * One candidate of a pick.
     *
     * @param id       the backend
     * @param weight   its effective weight (slow start applied) in the config's units: 1, or 0.55 while ramping
     * @param inflight its requests in flight as the pick began
     * @param backup   a backup backend, asked because no primary could take the request
     * @param skipped  why the pick could not choose it: {@code tried} (this request already failed on it) or
     *                 {@code busy} (at its {@code maxInFlight}, draining, or its breaker admits no more now); null
     *                 when it could
     * @param score    the score the strategy gave it, or null when it scores nothing (what a score means is the
     *                 strategy's: adaptive's busyness 0..1, power-of-two's in-flight requests per unit of weight)
     * @param fallback when a stand-in replaced its own score, why: {@code stale}, {@code missing}, {@code cold-start};
     *                 else null
     */
    public record Candidate(String id, double weight, int inflight, boolean backup, String skipped, Double score,
                            String fallback) {
    }

    /** The decision as one JSON object, the shape docs/REFERENCE.md §5 gives (fields always in this order). */
    public String toJson() {
        StringBuilder b = new StringBuilder(256);
        appendJson(b);
        return b.toString();
    }

    /** Appends {@link #toJson} to {@code b}, for a writer that builds a whole line. */
    public void appendJson(StringBuilder b) {
        b.append("{\"picks\":[");
        for (int p = 0; p < picks.size(); p++) {
            Pick k = picks.get(p);
            b.append(p == 0 ? "" : ",").append("{\"attempt\":").append(k.attempt()).append(",\"strategy\":");
            string(b, k.strategy());
            b.append(",\"candidates\":[");
            for (int i = 0; i < k.candidates().size(); i++) {
                Candidate c = k.candidates().get(i);
                b.append(i == 0 ? "" : ",").append("{\"id\":");
                string(b, c.id());
                b.append(",\"weight\":");
                number(b, c.weight());
                b.append(",\"inflight\":").append(c.inflight());
                if (c.backup()) {
                    b.append(",\"backup\":true");
                }
                if (c.skipped() != null) {
                    b.append(",\"skipped\":");
                    string(b, c.skipped());
                }
                if (c.score() != null) {
                    b.append(",\"score\":");
                    number(b, c.score());
                }
                if (c.fallback() != null) {
                    b.append(",\"fallback\":");
                    string(b, c.fallback());
                }
                b.append('}');
            }
            b.append("],\"draws\":[");
            for (int i = 0; i < k.draws().size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                number(b, k.draws().get(i));
            }
            b.append("],\"fallback\":");
            string(b, k.fallback());
            b.append(",\"picked\":");
            string(b, k.picked());
            if (k.key() != null) {
                b.append(",\"key\":");
                string(b, k.key());
                b.append(",\"keyHash\":\"").append(Long.toUnsignedString(k.keyHash())).append('"');
            }
            b.append('}');
        }
        b.append("]}");
    }

    /** A whole number as one ({@code 3}), any other as Java writes it; JSON has no NaN or infinity: null. */
    private static void number(StringBuilder b, double v) {
        if (!Double.isFinite(v)) {
            b.append("null");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            b.append((long) v);
        } else {
            b.append(v);
        }
    }

    /** A JSON string (or null), escaped: a key or a plugin's message may hold anything. */
    private static void string(StringBuilder b, String s) {
        if (s == null) {
            b.append("null");
            return;
        }
        b.append('"');
        JsonText.appendEscaped(b, s);
        b.append('"');
    }
}
