package dev.fulcrum.lesson;

/**
 * A step's {@code waitFor}: a passive {@link Expectation} polled until it holds, at most {@code timeoutMs}. Every wait
 * has a timeout, so a lesson whose figures never come ends with a failed line instead of hanging.
 *
 * @param condition what must hold
 * @param timeoutMs how long to wait for it at most
 */
record WaitFor(Expectation condition, long timeoutMs) {
    /** The longest wait a lesson may ask for: a lesson is shown live, and checked on every build. */
    static final long MAX_TIMEOUT_MS = 60_000;

    String describe() {
        return "wait up to " + Bound.number(timeoutMs / 1000.0) + " s for " + what(condition);
    }

    /** The condition in a few words, e.g. {@code breaker of demo-b OPEN}. */
    static String what(Expectation e) {
        if (e instanceof Expectation.BreakerIs b) {
            return "breaker of " + b.backend() + " " + b.breakerState();
        }
        if (e instanceof Expectation.BreakerWent b) {
            return "breaker of " + b.backend() + " to go " + String.join(" → ", b.states());
        }
        if (e instanceof Expectation.StateIs s) {
            return s.backend() + " " + s.backendState();
        }
        if (e instanceof Expectation.Share s) {
            return "share of " + s.backend() + " " + s.bound().text();
        }
        if (e instanceof Expectation.Answered a) {
            Bound b = a.bound();
            String whose = a.requestClass() == null ? "answers" : a.requestClass() + " answers";
            return b.lowInclusive() && Double.isInfinite(b.high()) ? Bound.number(b.low()) + " " + whose
                    : whose + " " + b.text();
        }
        if (e instanceof Expectation.PoolShare s) {
            return "share of pool " + s.pool() + " " + s.bound().text();
        }
        if (e instanceof Expectation.Event ev) {
            return ev.happened() ? "a " + ev.type() + " event" : "no " + ev.type() + " event";
        }
        if (e instanceof Expectation.Mirrored m) {
            return "copies mirrored to " + m.pool() + " per request " + m.bound().text();
        }
        if (e instanceof Expectation.Shed s) {
            return "requests shed " + s.bound().text();
        }
        if (e instanceof Expectation.EffectiveWeight w) {
            return "effective weight of " + w.backend() + " " + w.bound().text();
        }
        if (e instanceof Expectation.TrafficDone) {
            return "the traffic to finish";
        }
        return e.getClass().getSimpleName();
    }
}
