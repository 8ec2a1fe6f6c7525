package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.BackendSpec;
import java.util.Map;

/**
 * A simulated backend of a replayed recording: its id, weight and labels as configured, and how fast it serves. A
 * request's recorded service time is divided by {@code speed} (the label {@code speed}: 2 is twice as fast, 0.5 half
 * as fast; 1 when absent). With the label {@code workers} it serves that many requests at once and queues the rest
 * in arrival order (a request's latency is then its wait plus its service); without it, any number at once.
 *
 * <p>Example: labels {@code {"speed": "0.25", "workers": "4"}} make a backend that takes 40 ms for a request recorded
 * at 10 ms, and a fifth request arriving while four are being served waits for the first of them to finish.
 *
 * @param workers requests served at once, or 0 for no limit
 */
public record ReplayBackend(String id, int weight, Map<String, String> labels, double speed, int workers) {
    /** The label a backend's speed is read from. */
    public static final String SPEED = "speed";
    /** The label a backend's number of workers is read from. */
    public static final String WORKERS = "workers";

    public ReplayBackend {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        if (!(speed > 0 && speed <= 1_000_000)) {
            throw new IllegalArgumentException("labels.speed: must be a number above 0 (got: " + speed + ")");
        }
        if (workers < 0) {
            throw new IllegalArgumentException("labels.workers: must be a whole number above 0 (got: " + workers + ")");
        }
    }

    /**
     * The backend of a config entry, {@code speed} and {@code workers} read from its labels.
     *
     * @throws IllegalArgumentException naming the label, e.g. {@code labels.speed: must be a number above 0 (got:
     *                                  fast)}
     */
    public static ReplayBackend of(BackendSpec spec) {
        Map<String, String> labels = spec.labels();
        double speed = 1;
        String s = labels.get(SPEED);
        if (s != null) {
            try {
                speed = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                speed = Double.NaN;
            }
            if (!(speed > 0 && speed <= 1_000_000)) {
                throw new IllegalArgumentException("labels.speed: must be a number above 0 (got: " + s + ")");
            }
        }
        int workers = 0;
        String w = labels.get(WORKERS);
        if (w != null) {
            try {
                workers = Integer.parseInt(w.trim());
            } catch (NumberFormatException e) {
                workers = -1;
            }
            if (workers < 1) {
                throw new IllegalArgumentException("labels.workers: must be a whole number above 0 (got: " + w + ")");
            }
        }
        return new ReplayBackend(spec.id(), spec.weight(), labels, speed, workers);
    }

    /** {@code n} identical backends {@code b1..bN}, weight 1, speed 1, no limit of workers. */
    public static java.util.List<ReplayBackend> identical(int n) {
        java.util.List<ReplayBackend> out = new java.util.ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(new ReplayBackend("b" + i, 1, Map.of(), 1, 0));
        }
        return out;
    }
}
