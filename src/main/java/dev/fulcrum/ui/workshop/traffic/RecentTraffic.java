package dev.fulcrum.ui.workshop.traffic;

import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.time.Ticker;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a traffic run did recently, from the snapshots it handed over, read at any moment: the answers per second
 * over the last second and the answers per backend over the last {@link #WINDOW_NANOS}. The generator's own figures
 * are cumulative and stop coming when the run ends, so they would show the last rate long after Stop and mix a
 * backend's answers before a reweight with those after it.
 *
 * <p>Each snapshot is kept with the time it arrived. A figure at {@code now} is the newest snapshot minus the
 * newest one at or before {@code now - span} (or nothing, when the run is younger than that). Example: answers 100
 * at 10.0 s, 150 at 11.0 s, nothing after: at 11.0 s the rate is (150 - 100) / 1 s = 50/s; at 12.5 s the base is
 * the 11.0 s snapshot itself, so 0/s. Per backend the window stops moving when the run is done: the chart then
 * holds the run's last ten seconds.
 */
final class RecentTraffic {
    static final long SECOND_NANOS = 1_000_000_000L;
    static final long WINDOW_NANOS = 10 * SECOND_NANOS;

    private record Sample(long nanos, long answers, Map<String, Long> byBackend) {
    }

    private final Ticker ticker;
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private long startNanos;
    private long doneNanos = -1;

    RecentTraffic(Ticker ticker) {
        this.ticker = ticker;
    }

    /** A new run: forgets the last one. */
    void start() {
        samples.clear();
        startNanos = ticker.nanos();
        doneNanos = -1;
    }

    /** A snapshot of the running run, taken now. */
    void add(TrafficSnapshot s) {
        long now = ticker.nanos();
        samples.addLast(new Sample(now, s.completed() + s.connectionErrors() + s.timeouts(), s.byBackend()));
        if (s.state() == TrafficSnapshot.State.DONE && doneNanos < 0) {
            doneNanos = now;
        }
        // one sample older than the window is enough to be the base of every figure
        while (samples.size() > 2) {
            Iterator<Sample> it = samples.iterator();
            it.next();
            if (it.next().nanos() <= now - WINDOW_NANOS) {
                samples.removeFirst();
            } else {
                break;
            }
        }
    }

    /** Answers (and failures) per second over the last second; 0 a second after the last one came. */
    double rateLastSecond() {
        if (samples.isEmpty()) {
            return 0;
        }
        long now = ticker.nanos();
        Sample base = baseAt(now - SECOND_NANOS);
        long since = base == null ? startNanos : base.nanos();
        long answers = samples.getLast().answers() - (base == null ? 0 : base.answers());
        long span = Math.max(now - since, SECOND_NANOS / 4);
        return answers * 1e9 / span;
    }

    /** Answers per backend over the last ten seconds of the run (its last ten, once it is done), sorted by id. */
    Map<String, Long> byBackend() {
        if (samples.isEmpty()) {
            return Map.of();
        }
        long now = doneNanos >= 0 ? Math.min(doneNanos, ticker.nanos()) : ticker.nanos();
        Sample base = baseAt(now - WINDOW_NANOS);
        Map<String, Long> out = new LinkedHashMap<>();
        samples.getLast().byBackend().forEach((id, n) ->
                out.put(id, n - (base == null ? 0 : base.byBackend().getOrDefault(id, 0L))));
        return out;
    }

    /** The newest sample at or before {@code at}, or null when every one is younger. */
    private Sample baseAt(long at) {
        Sample base = null;
        for (Sample s : samples) {
            if (s.nanos() > at) {
                break;
            }
            base = s;
        }
        return base;
    }
}
