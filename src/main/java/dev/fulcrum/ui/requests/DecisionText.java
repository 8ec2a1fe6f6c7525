package dev.fulcrum.ui.requests;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a recorded {@link Decision} reads in the Requests tab and in "Why this backend": a small table of each pick's
 * candidates, and sentences for its draws, its scores' fallbacks and its own fallback. Plain functions, so the view
 * and the tests agree.
 *
 * <p>Example, adaptive over a (score 0.8), b (stale, the average 0.61 standing in) and c, one draw at 0.412, picked
 * c: the lines read "adaptive picked c.", "Drew 0.412 along the pick weights (1 - score + 0.1, times the weight).",
 * "b scored the average 0.61 because its metrics were stale (older than 10 s).".
 */
public final class DecisionText {
    /** Said when a request carries no decision. */
    public static String notRecorded() {
        return Texts.t("requests.decision.not_recorded");
    }

    private DecisionText() {
    }

    /** One row of a pick's candidate table. */
    public record Row(String backend, String weight, String inFlight, String score, String note) {
    }

    /** The pick's candidates as the table shows them. */
    public static List<Row> rows(Decision.Pick p) {
        List<Row> out = new ArrayList<>();
        for (Decision.Candidate c : p.candidates()) {
            List<String> notes = new ArrayList<>();
            if (c.id().equals(p.picked())) {
                notes.add(Texts.t("requests.decision.note.picked"));
            }
            if (c.backup()) {
                notes.add(Texts.t("requests.decision.note.backup"));
            }
            if (c.skipped() != null) {
                notes.add(skipped(c.skipped()));
            }
            if (c.fallback() != null) {
                notes.add(c.fallback());
            }
            out.add(new Row(c.id(), number(c.weight()), Integer.toString(c.inflight()),
                    c.score() == null ? "–" : number(c.score()), String.join(", ", notes)));
        }
        return out;
    }

    /** The heading of pick {@code p}: {@code Attempt 2: weighted-random picked b}. */
    public static String heading(Decision.Pick p) {
        String attempt = Integer.toString(p.attempt());
        return p.picked() == null ? Texts.t("requests.decision.heading.none", attempt, strategy(p))
                : Texts.t("requests.decision.heading", attempt, strategy(p), p.picked());
    }

    /** The decision in sentences, pick by pick. */
    public static List<String> lines(Decision d) {
        return lines(d, null);
    }

    /**
     * The decision in sentences, pick by pick.
     *
     * @param staleAfterMs the pool's {@code staleAfterMs} where it is known, to say how old stale metrics were; or null
     */
    public static List<String> lines(Decision d, Long staleAfterMs) {
        List<String> out = new ArrayList<>();
        if (d == null) {
            out.add(notRecorded());
            return out;
        }
        for (Decision.Pick p : d.picks()) {
            out.addAll(lines(p, staleAfterMs));
        }
        return out;
    }

    /** One pick in sentences: what it chose among, what it drew, what stood in for a score, any fallback. */
    public static List<String> lines(Decision.Pick p, Long staleAfterMs) {
        List<String> out = new ArrayList<>();
        String strategy = p.strategy() == null ? "" : p.strategy();
        List<String> could = new ArrayList<>();
        for (Decision.Candidate c : p.candidates()) {
            if (c.skipped() == null) {
                could.add(c.id());
            }
        }
        String attempt = Integer.toString(p.attempt());
        String among = could.isEmpty() ? Texts.t("requests.decision.nobody") : String.join(", ", could);
        out.add(p.picked() == null ? Texts.t("requests.decision.chose.none", attempt, strategy(p), among)
                : Texts.t("requests.decision.chose", attempt, strategy(p), among, p.picked()));
        for (Decision.Candidate c : p.candidates()) {
            if (c.skipped() != null) {
                out.add(Texts.t("requests.decision.left_out", c.id(), skipped(c.skipped())));
            }
        }
        String draws = draws(p);
        if (draws != null) {
            out.add(draws);
        }
        for (Decision.Candidate c : p.candidates()) {
            if (c.fallback() != null) {
                out.add(scoreFallback(strategy, c, staleAfterMs));
            }
        }
        if (p.fallback() != null) {
            out.add(p.picked() == null ? Texts.t("requests.decision.fallback.none", p.fallback())
                    : Texts.t("requests.decision.fallback", p.fallback(), p.picked()));
        }
        return out;
    }

    /** Why a candidate could not be chosen, in words. */
    static String skipped(String why) {
        return switch (why) {
            case "tried" -> Texts.t("requests.decision.skipped.tried");
            case "busy" -> Texts.t("requests.decision.skipped.busy");
            default -> why;
        };
    }

    /** The pick's strategy by its name, or "the strategy" when the record has none. */
    private static String strategy(Decision.Pick p) {
        return p.strategy() == null ? Texts.t("requests.decision.the_strategy") : p.strategy();
    }

    /** A stand-in score in words: {@code b scored the average 0.61 because its metrics were stale (older than 10 s)}. */
    static String scoreFallback(String strategy, Decision.Candidate c, Long staleAfterMs) {
        String score = c.score() == null ? "" : " " + number(c.score());
        if (c.fallback().equals("cold-start") && strategy.equals("score")) {
            return Texts.t("requests.decision.cold_start_share", c.id(), score);
        }
        String because = switch (c.fallback()) {
            case "stale" -> Texts.t("requests.decision.because.stale", staleAfterMs == null
                    ? Texts.t("requests.decision.stale_after") : seconds(staleAfterMs));
            case "missing" -> Texts.t("requests.decision.because.missing");
            case "cold-start" -> Texts.t("requests.decision.because.cold_start");
            default -> c.fallback();
        };
        if (strategy.equals("adaptive")) {
            return Texts.t("requests.decision.scored_average", c.id(), score, because);
        }
        return score.isEmpty() ? Texts.t("requests.decision.given_stand_in", c.id(), because)
                : Texts.t("requests.decision.given", c.id(), score, because);
    }

    /** The draws in words, as the strategy used them; null when it drew nothing. */
    static String draws(Decision.Pick p) {
        List<Double> d = p.draws();
        if (d.isEmpty()) {
            return null;
        }
        String first = number(d.get(0));
        String end = d.size() == 1 ? Texts.t("requests.draw.end")
                : Texts.t("requests.draw.more", joined(d.subList(1, d.size())));
        String strategy = p.strategy() == null ? "" : p.strategy();
        switch (strategy) {
            case "weighted-random" -> {
                String owner = segmentOwner(p, d.get(0));
                return Texts.t("requests.draw.weight_line", first)
                        + (owner == null ? "" : Texts.t("requests.draw.falls_in", owner)) + end;
            }
            case "random" -> {
                int n = p.candidates().size();
                String owner = n == 0 ? null : p.candidates().get(Math.min(n - 1, (int) Math.floor(d.get(0) * n + 1e-9)))
                        .id();
                return Texts.t("requests.draw.random", first)
                        + (owner == null ? "" : Texts.t("requests.draw.equally", owner, Integer.toString(n))) + end;
            }
            case "power-of-two" -> {
                List<String> drawn = new ArrayList<>();
                for (Decision.Candidate c : p.candidates()) {
                    if (c.score() != null) {
                        drawn.add(Texts.t("requests.draw.per_weight", c.id(), number(c.score())));
                    }
                }
                return Texts.t("requests.draw.fewest", joined(d), String.join(Texts.t("requests.draw.and"), drawn))
                        + (p.picked() == null ? Texts.t("requests.draw.end") : Texts.t("requests.draw.wins",
                        p.picked()));
            }
            case "adaptive" -> {
                return Texts.t("requests.draw.pick_weights", first) + end;
            }
            default -> {
                return Texts.t("requests.draw.plain", joined(d));
            }
        }
    }

    /** The candidate whose share of the weight line holds {@code draw}, with its share: {@code b's [0.25, 1)}. */
    private static String segmentOwner(Decision.Pick p, double draw) {
        double total = 0;
        for (Decision.Candidate c : p.candidates()) {
            if (!c.backup()) {
                total += c.weight();
            }
        }
        if (total <= 0) {
            return null;
        }
        double start = 0;
        for (Decision.Candidate c : p.candidates()) {
            if (c.backup()) {
                continue;
            }
            double end = start + c.weight() / total;
            if (draw < end || end >= 1 - 1e-12) {
                return Texts.t("requests.draw.share", c.id(), number(start), number(end));
            }
            start = end;
        }
        return null;
    }

    private static String joined(List<Double> ds) {
        List<String> s = new ArrayList<>();
        ds.forEach(x -> s.add(number(x)));
        return String.join(", ", s);
    }

    /** Up to three decimals, trailing zeros dropped: {@code 0.412}, {@code 3}, {@code 0.25}. */
    static String number(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "");
            s = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        }
        return s.equals("-0") ? "0" : s;
    }

    /** {@code 10000} ms as {@code 10 s}, {@code 1500} as {@code 1.5 s}, {@code 250} as {@code 250 ms}. */
    static String seconds(long ms) {
        return ms < 1000 ? ms + " ms" : number(ms / 1000.0) + " s";
    }
}
