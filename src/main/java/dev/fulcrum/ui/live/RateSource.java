package dev.fulcrum.ui.live;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.requests.RequestSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The Live stage's requests for an engine that publishes none (an HAProxy fleet, whose stats give each server's rate,
 * state and error rate but no single request): each backend of the selected pool gets as many requests as its last
 * reported rate says for the time since the last poll, its reported error rate of them as 5xx, its p50 as their
 * latency. The stage then draws them as it draws real ones, one dot standing for several above its budget, and says
 * where they come from. Fractions carry over from poll to poll, so a backend at 0.5 req/s gets a dot every two
 * seconds.
 *
 * <p>Example: a state with s1 at 30 req/s (10% errors) and s2 at 10 req/s, polled 0.1 s apart, gives 3 requests to
 * s1 (0.3 of one a 500, carried) and 1 to s2.
 */
final class RateSource implements RequestSource {
    static final String CLIENT = "clients";

    private final Supplier<EngineState> state;
    private final Supplier<String> pool;
    private final DoubleSupplier seconds;
    private final Map<String, double[]> owed = new HashMap<>();
    private double last = Double.NaN;

    RateSource(Supplier<EngineState> state, Supplier<String> pool, DoubleSupplier seconds) {
        this.state = state;
        this.pool = pool;
        this.seconds = seconds;
    }

    @Override
    public Batch poll() {
        double now = seconds.getAsDouble();
        double dt = Double.isNaN(last) ? 0 : Math.min(1, Math.max(0, now - last));
        last = now;
        EngineState s = state.get();
        if (s == null || dt == 0) {
            return Batch.EMPTY;
        }
        List<RequestSample> out = new ArrayList<>();
        for (BackendInfo b : s.backends()) {
            if (!pool.get().equals(b.pool()) || b.rps() <= 0) {
                continue;
            }
            double[] o = owed.computeIfAbsent(b.id(), k -> new double[2]); // requests owed, errors owed
            double errorShare = Math.max(0, Math.min(1, b.errorRate()));
            o[0] += b.rps() * dt;
            o[1] += b.rps() * dt * errorShare;
            while (o[0] >= 1) {
                o[0] -= 1;
                boolean error = o[1] >= 1;
                if (error) {
                    o[1] -= 1;
                }
                out.add(sample(b, error ? 500 : 200));
            }
        }
        return new Batch(out, 0);
    }

    private static RequestSample sample(BackendInfo b, int status) {
        double ms = Double.isFinite(b.latencyP50Ms()) ? b.latencyP50Ms() : 0; // HAProxy's stats give no percentile
        List<RequestSample.Attempt> tried = List.of(new RequestSample.Attempt(b.id(), status == 200 ? "success" : "5xx",
                ms));
        return new RequestSample(null, 0, b.pool(), "GET", "", null, "http", "HTTP/1.1", CLIENT, null, 0, tried,
                b.id(), status, 0, 0, ms, false, false, false, false, false, List.of(), List.of());
    }

    @Override
    public Batch sample(int max) {
        Batch all = poll();
        return all.requests().size() <= max ? all : Batch.spread(all.requests(), 0, max);
    }

    @Override
    public List<RequestSample> recent(int limit) {
        return List.of();
    }

    @Override
    public void close() {
    }
}
