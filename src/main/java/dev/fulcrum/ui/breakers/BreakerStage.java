package dev.fulcrum.ui.breakers;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.time.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * What one breaker card shows at the ticker's now: the state lit on the machine, played transition by transition,
 * the countdown to HALF_OPEN, the probe slots and the rate that tripped it. Plain Java; the card asks it each frame.
 *
 * <p>Why it plays rather than copies the state: at 50 requests a second a breaker is HALF_OPEN for under 200 ms, less
 * than one state sample, so the sampled state goes OPEN, CLOSED and nobody sees it probe. The engine's transition
 * events come with every sample; each is shown for at least {@link #HOLD_MS} (HALF_OPEN for {@link #HALF_OPEN_HOLD_MS}),
 * marked as past while the breaker has moved on. Example: events OPEN → HALF_OPEN at t and HALF_OPEN → CLOSED at
 * t + 150 ms arrive together at t + 200 ms: HALF_OPEN is lit ("past") with its probes filled until t + 1.4 s, then
 * CLOSED.
 */
final class BreakerStage {
    /** Each transition is on screen at least this long, so a burst of them plays in order. */
    static final long HOLD_MS = 500;
    /** HALF_OPEN, however short, stays long enough for an audience to see it. */
    static final long HALF_OPEN_HOLD_MS = 1200;
    /** Transitions older than this when their turn comes are skipped (the tab was hidden): the past is in the list. */
    static final long STALE_MS = 10_000;

    private record Transition(String from, String to, long atMillis) {
    }

    private final Ticker ticker;
    private final Deque<Transition> queue = new ArrayDeque<>();
    private EngineState.BreakerInfo live;
    private long sampledAtNanos;
    private Transition shown; // the transition being played, or null: then the live state is shown
    private long shownSinceNanos;
    private String openedFrom = "CLOSED";

    BreakerStage(Ticker ticker) {
        this.ticker = ticker;
    }

    /** A transition from the engine's events, in order. */
    void transition(String from, String to, long atMillis) {
        queue.add(new Transition(from, to, atMillis));
    }

    /** The breaker as the last state sample saw it. */
    void sample(EngineState.BreakerInfo b) {
        live = b;
        sampledAtNanos = ticker.nanos();
    }

    private String liveState() {
        return live == null ? "CLOSED" : live.state();
    }

    /** Moves the play on to now; call before reading. */
    void advance() {
        long now = ticker.nanos();
        while (true) {
            if (shown != null && now - shownSinceNanos < hold(shown.to()) * 1_000_000) {
                return;
            }
            Transition next = queue.poll();
            if (next == null) {
                shown = null;
                return;
            }
            if (ticker.wallMillis() - next.atMillis() > STALE_MS && !queue.isEmpty()) {
                continue;
            }
            if ("OPEN".equals(next.to())) {
                openedFrom = next.from();
            }
            shown = next;
            shownSinceNanos = now;
        }
    }

    private static long hold(String state) {
        return "HALF_OPEN".equals(state) ? HALF_OPEN_HOLD_MS : HOLD_MS;
    }

    /** The state lit on the machine. */
    String state() {
        return shown == null ? liveState() : shown.to();
    }

    /** Whether the state lit is no longer the breaker's: it is being replayed so that it can be seen. */
    boolean past() {
        return shown != null && (!queue.isEmpty() || !shown.to().equals(liveState()));
    }

    /** The text beside the state: the state, and when it is past, how long ago it happened. */
    String stateText() {
        String word = Texts.word("breaker", state());
        return past() ? word + " " + pastNote() : word;
    }

    /** When the state lit is past, how long ago it happened and the state now, e.g. "(0.2 s ago; now CLOSED)"; else "". */
    String pastNote() {
        if (!past()) {
            return "";
        }
        double ago = Math.max(0, ticker.wallMillis() - shown.atMillis()) / 1000.0;
        return Texts.t("breakers.past", decimal(ago), Texts.word("breaker", liveState()));
    }

    /** While OPEN: the time left until HALF_OPEN, counted down between samples and never "0.0 s". */
    String countdown() {
        String st = state();
        if ("OPEN".equals(st) && !past() && live != null) {
            double left = live.msUntilHalfOpen() - (ticker.nanos() - sampledAtNanos) / 1e6;
            return left >= 100 ? Texts.t("breakers.halfopen.in", decimal(left / 1000.0))
                    : Texts.t("breakers.halfopen.nexttick");
        }
        if ("OPEN".equals(st)) {
            return Texts.t("breakers.wasopen");
        }
        if ("HALF_OPEN".equals(st)) {
            return past() ? Texts.t(queue.isEmpty() && "CLOSED".equals(liveState()) || next("CLOSED")
                    ? "breakers.probed.fine" : "breakers.probed.failed") : Texts.t("breakers.probing");
        }
        return "";
    }

    private boolean next(String to) {
        Transition t = queue.peek();
        return t != null && to.equals(t.to());
    }

    /**
     * Why the breaker opened, while OPEN: the window's rate that tripped it (against its threshold), or a failed probe;
     * null in any other state.
     */
    String tripText(double failureThreshold, double slowThreshold) {
        if (!"OPEN".equals(state())) {
            return null;
        }
        if ("HALF_OPEN".equals(openedFrom)) {
            return Texts.t("breakers.trip.again");
        }
        if (live == null || live.trippedFailureRate() == null) {
            return Double.isNaN(failureThreshold) ? Texts.t("breakers.trip.window")
                    : Texts.t("breakers.trip.reached", whole(failureThreshold));
        }
        double f = live.trippedFailureRate();
        double s = live.trippedSlowCallRate() == null ? 0 : live.trippedSlowCallRate();
        boolean slow = !Double.isNaN(slowThreshold) && s >= slowThreshold
                && (Double.isNaN(failureThreshold) || f < failureThreshold);
        return slow ? Texts.t("breakers.trip.slow", whole(s), whole(slowThreshold))
                : Double.isNaN(failureThreshold) ? Texts.t("breakers.trip.failures", whole(f))
                : Texts.t("breakers.trip.failures.threshold", whole(f), whole(failureThreshold));
    }

    /** {@code 0.2}: one decimal, with the window language's decimal mark (0,2 in Polish). */
    static String decimal(double v) {
        return String.format(Texts.locale(), "%.1f", v);
    }

    /** {@code 63}: a percentage or a count rounded to a whole number, never grouped (1500, not 1,500). */
    static String whole(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /**
     * The failure rate of the window that opened the breaker, while OPEN from CLOSED and when the engine publishes
     * it; else null (the window is empty while OPEN, so its live rate says nothing).
     */
    Double trippedFailureRate() {
        return "OPEN".equals(state()) && !"HALF_OPEN".equals(openedFrom) && live != null
                ? live.trippedFailureRate() : null;
    }

    /**
     * The half-open probe slots, one per probe: {@code SUCCESS} (came back fine), {@code FAILURE}, {@code WAITING}
     * (admitted, not back) or {@code FREE}. Live while HALF_OPEN; a past HALF_OPEN shows how it ended; empty otherwise.
     */
    List<String> probeSlots(int configured) {
        List<String> out = new ArrayList<>();
        if (!"HALF_OPEN".equals(state())) {
            return out;
        }
        int of = live != null && live.probes() > 0 ? live.probes() : Math.max(1, configured);
        if (past()) {
            boolean fine = next("CLOSED") || queue.isEmpty() && "CLOSED".equals(liveState());
            for (int i = 0; i < of; i++) {
                out.add(fine ? "SUCCESS" : i == of - 1 ? "FAILURE" : "FREE");
            }
            return out;
        }
        int admitted = live == null ? 0 : live.probesAdmitted();
        int ok = live == null ? 0 : live.probesSucceeded();
        for (int i = 0; i < of; i++) {
            out.add(i < ok ? "SUCCESS" : i < admitted ? "WAITING" : "FREE");
        }
        return out;
    }
}
