package dev.fulcrum.lesson;

import dev.fulcrum.i18n.Texts;

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

    /**
     * The words of a line the window shows (a check, an action, a wait), from the bundles' {@code lesson.} keys in the
     * window's language: English on the command line, which never picks another ({@link Texts}). Every argument goes
     * in as written, so a count reads {@code 1000}, not {@code 1,000}.
     */
    static String words(String key, Object... args) {
        Object[] asWritten = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            asWritten[i] = String.valueOf(args[i]);
        }
        return Texts.t(key, asWritten);
    }

    /** The {@code step N: ok: ...} line, {@code step} counted from 1. */
    public String line(int step) {
        return "step " + step + ": " + (ok ? "ok: " : "FAILED: ") + text;
    }
}
