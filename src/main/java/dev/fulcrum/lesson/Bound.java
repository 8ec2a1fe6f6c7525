package dev.fulcrum.lesson;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The range a lesson's figure must fall in, as a lesson file writes it beside (or as) an expectation:
 * {@code "between": [0.09, 0.13]} (both ends included), {@code "above": 250}, {@code "below": 100} (strict),
 * {@code "atLeast": 5}, {@code "atMost": 0} (inclusive). {@link #text()} is how a check line says it:
 * {@code in [0.09, 0.13]}, {@code above 250}, {@code at most 0}.
 *
 * @param low           the lower end, or negative infinity
 * @param lowInclusive  whether {@code low} itself holds
 * @param high          the upper end, or positive infinity
 * @param highInclusive whether {@code high} itself holds
 */
public record Bound(double low, boolean lowInclusive, double high, boolean highInclusive) {
    /** The names a lesson file may give a bound, in the order the reader looks for them. */
    static final java.util.List<String> FIELDS = java.util.List.of("between", "above", "below", "atLeast", "atMost");

    public static Bound between(double low, double high) {
        return new Bound(low, true, high, true);
    }

    public static Bound above(double x) {
        return new Bound(x, false, Double.POSITIVE_INFINITY, false);
    }

    public static Bound below(double x) {
        return new Bound(Double.NEGATIVE_INFINITY, false, x, false);
    }

    public static Bound atLeast(double x) {
        return new Bound(x, true, Double.POSITIVE_INFINITY, false);
    }

    public static Bound atMost(double x) {
        return new Bound(Double.NEGATIVE_INFINITY, false, x, true);
    }

    public boolean holds(double v) {
        boolean lowOk = lowInclusive ? v >= low : v > low;
        boolean highOk = highInclusive ? v <= high : v < high;
        return lowOk && highOk;
    }

    /**
     * {@code in [0.09, 0.13]}, {@code above 250}, {@code below 100}, {@code at least 5}, {@code at most 0}, in the
     * window's language.
     */
    public String text() {
        return text(true);
    }

    /** As {@link #text()}, or the bound missed ({@code not in [0.09, 0.13]}) when {@code met} is false. */
    String text(boolean met) {
        String not = met ? "" : ".not";
        if (Double.isInfinite(high)) {
            return Check.words("lesson.check.bound." + (lowInclusive ? "at_least" : "above") + not, number(low));
        }
        if (Double.isInfinite(low)) {
            return Check.words("lesson.check.bound." + (highInclusive ? "at_most" : "below") + not, number(high));
        }
        return Check.words("lesson.check.bound.between" + not, number(low), number(high));
    }

    /** {@code <what> <value> <bound>}, the bound said as missed ({@code not ...}) when the value misses it. */
    String line(String what, double value) {
        return Check.words("lesson.check.figure", what, number(value), text(holds(value)));
    }

    /** A figure as a check line prints it: whole numbers bare, others to three significant digits (0.112, 312, 1.08). */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return String.valueOf(v);
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(Math.abs(v) >= 1000 ? 7 : 3));
        return d.stripTrailingZeros().toPlainString();
    }
}
