package dev.fulcrum.demo;

import dev.fulcrum.engine.sim.SimRequest;
import dev.fulcrum.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Replays a recorded trace (see {@link TrafficRecorder}): through the proxy as live traffic at 1x or faster,
 * or into the side-by-side simulator.
 *
 * <p>Replaying at speed {@code s} sends request {@code i} at {@code offset_i / s} after the start, open loop
 * as always: at 4x a 60 s recording plays in 15 s with the same sequence of keys and methods and the same
 * gaps, four times shorter. The key is placed as the base settings say, so a trace recorded against a
 * {@code key: path} ring can be replayed against {@code header:X-User}.
 */
public final class TrafficReplay {
    public static final double MIN_SPEED = 0.01;
    public static final double MAX_SPEED = 1000;

    private TrafficReplay() {
    }

    /**
     * A generator (not started) that replays {@code trace} through {@code base.target()}, using {@code base}'s
     * key placement, concurrency cap and request timeout. It stops by itself after the last request is sent
     * and answered.
     *
     * @param trace requests in any order (sent by offset; ties in list order)
     * @param speed 1.0 = as recorded, 4.0 = four times faster
     */
    public static TrafficGenerator through(TrafficSettings base, List<TrafficRequest> trace, double speed) {
        return through(base, trace, speed, null);
    }

    /** The same replay, paced on {@code scheduler} (null: schedulers of its own; see {@link TrafficGenerator}). */
    public static TrafficGenerator through(TrafficSettings base, List<TrafficRequest> trace, double speed,
            Scheduler scheduler) {
        List<TrafficRequest> sorted = sorted(trace);
        requireSpeed(speed);
        long[] schedule = scheduleNanos(sorted, speed);
        long last = schedule[schedule.length - 1];
        long duration = last + 1_000_000L; // the last send is due just before the end
        double target = last == 0 ? sorted.size() : (sorted.size() - 1) * 1e9 / last;
        TrafficSettings s = base.withDuration(Duration.ofNanos(duration));
        return new TrafficGenerator(s, new TrafficGenerator.TracePlan(sorted, speed), duration, target, scheduler);
    }

    /** When each request of the trace is sent at {@code speed}, in nanoseconds after the start (sorted trace order). */
    public static long[] scheduleNanos(List<TrafficRequest> trace, double speed) {
        requireSpeed(speed);
        List<TrafficRequest> sorted = sorted(trace);
        TrafficGenerator.TracePlan plan = new TrafficGenerator.TracePlan(sorted, speed);
        long[] out = new long[sorted.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = plan.offsetNanos(i);
        }
        return out;
    }

    /** The trace as input for {@code SideBySide.run}: arrivals at {@code offset / speed}, same keys and methods. */
    public static List<SimRequest> toSimTrace(List<TrafficRequest> trace, double speed) {
        long[] at = scheduleNanos(trace, speed);
        List<TrafficRequest> sorted = sorted(trace);
        List<SimRequest> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < at.length; i++) {
            out.add(new SimRequest(at[i], sorted.get(i).method(), sorted.get(i).key()));
        }
        return List.copyOf(out);
    }

    private static List<TrafficRequest> sorted(List<TrafficRequest> trace) {
        if (trace == null || trace.isEmpty()) {
            throw new IllegalArgumentException("trace: at least one request required (got: 0)");
        }
        List<TrafficRequest> s = new ArrayList<>(trace);
        s.sort(Comparator.comparingLong(TrafficRequest::offsetMicros));
        return s;
    }

    private static void requireSpeed(double speed) {
        if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
            throw new IllegalArgumentException("speed: must be between " + MIN_SPEED + " and " + (long) MAX_SPEED
                    + " (got: " + speed + ")");
        }
    }
}
