package dev.fulcrum.admin;

import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Everything the window needs from an engine: a state snapshot, the event stream, and commands. Implemented
 * in-process (the embedded engine), over HTTP + SSE against a remote Fulcrum's admin API, and over the
 * HAProxy runtime API, so one window manages any of them.
 *
 * <p>Every method may block on I/O: call them off the JavaFX thread. Refused commands throw
 * {@link dev.fulcrum.engine.EngineException} with the admin API's status and message.
 */
public interface EngineClient extends AutoCloseable {
    /** What is managed, for the title bar, e.g. {@code embedded engine, proxy http://127.0.0.1:8080}. */
    String describe();

    /** What this kind of engine can show; the window hides what it cannot (never fakes it). */
    Capabilities capabilities();

    EngineState state();

    /** Engine events (breaker, health, membership, weight, strategy, drain, demo, config) as they happen. */
    void subscribe(Consumer<EngineEvent> listener);

    void addBackend(String pool, String id, String url, int weight);

    /** Adds a backend with its in-flight cap and backup flag (an undone removal brings it back as it was). */
    default void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
        if (maxInFlight != null || backup) {
            throw new EngineException(400, "maxInFlight, backup: this engine adds plain backends only (got: "
                    + maxInFlight + ", " + backup + ")");
        }
        addBackend(pool, id, url, weight);
    }

    /**
     * Adds a backend with its labels too (docs/REFERENCE.md §4 {@code POST /api/backends}); an engine that keeps no
     * labels refuses any.
     */
    default void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup,
                            Map<String, String> labels) {
        if (labels != null && !labels.isEmpty()) {
            throw new EngineException(400, "labels: this engine keeps no labels (got: " + labels + ")");
        }
        addBackend(pool, id, url, weight, maxInFlight, backup);
    }

    void setWeight(String id, int weight);

    void drain(String id);

    void enable(String id);

    void remove(String id);

    /** A strategy object as in docs/REFERENCE.md §2.2, e.g. {@code {"type":"consistent-hash","virtualNodes":160}}. */
    void setStrategy(String pool, Map<String, Object> strategy);

    /** The ring or Maglev table of a pool, or null when its strategy has none. */
    Ring ring(String pool);

    Lookup lookup(String pool, String key);

    /** What-if: removing, adding or reweighting, computed without changing anything. */
    Preview preview(String pool, List<String> remove, Map<String, Integer> add, Map<String, Integer> weights);

    /** Fault settings of the demo backends by id (latencyMs, errorRate, down); empty when none. */
    Map<String, Map<String, Object>> demoState();

    void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down);

    /** The running config as JSON, as {@code GET /api/config} answers it (docs/REFERENCE.md §4). */
    default String configJson() {
        throw new EngineException(501, "config: this engine has no Fulcrum config to read (got: " + describe() + ")");
    }

    /**
     * Applies a whole config in place, all of it or none of it, as {@code PUT /api/config} does.
     *
     * @return the problems, each {@code <json path>: <what> (got: <value>)}; empty when applied
     */
    default List<String> applyConfig(String json) {
        throw new EngineException(501, "config: this engine takes no Fulcrum config (got: " + describe() + ")");
    }

    /** Active health-check results by backend id, newest last. */
    Map<String, List<Map<String, Object>>> probeHistory();

    /**
     * The requests the engine's proxy completes from now on, sampled, for the Live and Requests views; null when this
     * engine shows none (an HAProxy fleet, or a Fulcrum keeping none). Each call opens a source of its own.
     */
    default RequestSource requests() {
        return null;
    }

    /**
     * The upgraded connections (WebSockets) open now, newest first, each as its record would read if it closed now:
     * status 101, {@code latencyMs} its life so far, {@code bytesIn} and {@code bytesOut} so far, id {@code tunnel:N}.
     * Empty when none are open or the engine cannot list them (an HAProxy fleet).
     */
    default List<dev.fulcrum.requests.RequestSample> openTunnels() {
        return List.of();
    }

    /**
     * Sets the weights of route {@code route}'s split ({@code PUT /api/routes/{index}/split}): the route's arms, in its
     * order, each with its new weight.
     */
    default void setSplit(int route, List<dev.fulcrum.engine.routing.Split.Arm> arms) {
        throw new UnsupportedOperationException("this engine has no splits");
    }

    /** Every user of route {@code route} to its split's last arm ({@code POST /api/routes/{index}/promote}). */
    default void promote(int route) {
        throw new UnsupportedOperationException("this engine has no splits");
    }

    /** Every user of route {@code route} back to its split's first arm ({@code POST /api/routes/{index}/rollback}). */
    default void rollback(int route) {
        throw new UnsupportedOperationException("this engine has no splits");
    }

    @Override
    void close();

    record Capabilities(boolean ring, boolean breakerWindow, boolean demo, boolean strategies, boolean addRemove) {
        public static final Capabilities FULCRUM = new Capabilities(true, true, true, true, true);
    }

    /** Points in hash order; hash is the unsigned 64-bit position. */
    record Ring(String type, List<Point> points, Map<String, Double> share) {
    }

    record Point(java.math.BigInteger hash, String backend) {
    }

    record Lookup(String key, java.math.BigInteger hash, String backend) {
    }

    /** {@code points} as {@link Ring#points()}: the key space after the change (null from an engine that sends none). */
    record Preview(double movedFraction, Map<String, Double> share, List<Point> points) {
    }
}
