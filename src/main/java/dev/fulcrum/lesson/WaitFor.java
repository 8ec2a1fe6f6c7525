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

    /** The wait as the narration panel says it, in the window's language. */
    String describe() {
        return Check.words("lesson.wait", Bound.number(timeoutMs / 1000.0), what(condition));
    }

    /** The condition in a few words, e.g. {@code breaker of demo-b OPEN}, in the window's language. */
    static String what(Expectation e) {
        if (e instanceof Expectation.BreakerIs b) {
            return Check.words("lesson.check.breaker.is", b.backend(), Expectation.breaker(b.breakerState()));
        }
        if (e instanceof Expectation.BreakerWent b) {
            return Check.words("lesson.wait.breaker_went", b.backend(), Expectation.breakers(b.states()));
        }
        if (e instanceof Expectation.StateIs s) {
            return Check.words("lesson.wait.state", s.backend(), dev.fulcrum.i18n.Texts.word("state",
                    s.backendState()));
        }
        if (e instanceof Expectation.Share s) {
            return Check.words("lesson.wait.bound", Check.words("lesson.check.share", s.backend()), s.bound().text());
        }
        if (e instanceof Expectation.Answered a) {
            Bound b = a.bound();
            String whose = Expectation.whose(a.requestClass());
            return b.lowInclusive() && Double.isInfinite(b.high())
                    ? Check.words("lesson.wait.answers", Bound.number(b.low()), whose)
                    : Check.words("lesson.wait.bound", whose, b.text());
        }
        if (e instanceof Expectation.PoolShare s) {
            return Check.words("lesson.wait.bound", Check.words("lesson.check.pool_share", s.pool()),
                    s.bound().text());
        }
        if (e instanceof Expectation.Event ev) {
            return Check.words(ev.happened() ? "lesson.wait.event" : "lesson.wait.no_event", ev.type());
        }
        if (e instanceof Expectation.Mirrored m) {
            return Check.words("lesson.wait.bound", Check.words("lesson.check.mirrored", m.pool()), m.bound().text());
        }
        if (e instanceof Expectation.Shed s) {
            return Check.words("lesson.wait.bound", Check.words("lesson.wait.shed"), s.bound().text());
        }
        if (e instanceof Expectation.EffectiveWeight w) {
            return Check.words("lesson.wait.bound", Check.words("lesson.check.weight", w.backend()),
                    w.bound().text());
        }
        if (e instanceof Expectation.TrafficDone) {
            return Check.words("lesson.wait.traffic_done");
        }
        return e.getClass().getSimpleName();
    }
}
