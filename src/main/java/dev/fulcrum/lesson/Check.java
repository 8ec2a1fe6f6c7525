package dev.fulcrum.lesson;

/**
 * One expectation of a step, checked: whether it held and the line that says so, e.g.
 * {@code share of demo-c 0.112 in [0.09, 0.13]}. {@code --lesson FILE --check} prints it as
 * {@code step 3: ok: <text>} or {@code step 3: FAILED: <text>}; the window ticks it green or red.
 *
 * @param ok   whether the figure met the expectation
 * @param text what was measured against what was expected
 */
public record Check(boolean ok, String text) {
    static Check of(boolean ok, String text) {
        return new Check(ok, text);
    }

    /** The {@code step N: ok: ...} line, {@code step} counted from 1. */
    public String line(int step) {
        return "step " + step + ": " + (ok ? "ok: " : "FAILED: ") + text;
    }
}
