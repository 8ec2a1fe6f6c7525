package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** The embedded engine, called directly; answers are built by {@link AdminModel} like the HTTP API's. */
public final class InProcessEngineClient implements EngineClient {
    private final AdminRuntime runtime;
    private final Engine engine;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();

    public InProcessEngineClient(AdminRuntime runtime) {
        this.runtime = runtime;
        this.engine = runtime.engine();
    }

    @Override
    public RequestSource requests() {
        dev.fulcrum.requests.RequestStream stream = runtime.requests();
        if (stream == null) {
            return null;
        }
        dev.fulcrum.requests.RequestStream.Cursor cursor = stream.fromNow();
        return new RequestSource() {
            @Override
            public Batch poll() {
                return read(Integer.MAX_VALUE, true);
            }

            @Override
            public Batch sample(int max) {
                return read(max, false);
            }

            private synchronized Batch read(int max, boolean headers) {
                long before = cursor.dropped();
                List<dev.fulcrum.requests.RequestSample> found = new java.util.ArrayList<>();
                cursor.poll(max, headers, found::add);
                long dropped = cursor.dropped() - before;
                return found.isEmpty() && dropped == 0 ? Batch.EMPTY : new Batch(found, dropped);
            }

            @Override
            public List<dev.fulcrum.requests.RequestSample> recent(int limit) {
                return stream.recent(limit);
            }

            @Override
            public void close() {
                // a cursor holds nothing
            }
        };
    }

    @Override
    public List<dev.fulcrum.requests.RequestSample> openTunnels() {
        return runtime.openTunnels();
    }

    @Override
    public String describe() {
        return "embedded engine, proxy " + runtime.proxyUrl();
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.FULCRUM;
    }

    @Override
    public EngineState state() {
        return Json.MAPPER.convertValue(AdminModel.state(runtime), EngineState.class);
    }

    @Override
    public void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        engine.subscribe(listener);
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight) {
        addBackend(pool, id, url, weight, null, false);
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
        addBackend(pool, id, url, weight, maxInFlight, backup, Map.of());
    }

    @Override
    public void addBackend(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup,
                           Map<String, String> labels) {
        Validation.backend(id, url, weight);
        Validation.labels(labels);
        engine.addBackend(pool == null ? Engine.DEFAULT_POOL : pool,
                new BackendSpec(id, url, weight, maxInFlight, backup, labels), true);
    }

    @Override
    public void setWeight(String id, int weight) {
        engine.setWeight(id, weight);
    }

    @Override
    public void drain(String id) {
        engine.drain(id);
    }

    @Override
    public void enable(String id) {
        engine.enable(id);
    }

    @Override
    public void remove(String id) {
        engine.remove(id);
    }

    @Override
    public void setStrategy(String pool, Map<String, Object> strategy) {
        Pool p = pool(pool);
        JsonNode n = Json.MAPPER.valueToTree(strategy);
        StrategySpec spec;
        try {
            spec = ConfigLoader.parseStrategy(n, "");
        } catch (ConfigException e) {
            throw new EngineException(400, Validation.message(e)); // as PUT /api/strategy answers
        }
        engine.setStrategy(p.name(), spec);
    }

    private Pool pool(String name) {
        Pool p = engine.pool(name == null ? Engine.DEFAULT_POOL : name);
        if (p == null) {
            throw new EngineException(404, "pool: no such pool (got: " + name + ")");
        }
        return p;
    }

    @Override
    public Ring ring(String pool) {
        Pool p = pool(pool);
        if (p.snapshot().primary().keySpace() == null) {
            return null;
        }
        return Json.MAPPER.convertValue(AdminModel.ring(p), Ring.class);
    }

    @Override
    public Lookup lookup(String pool, String key) {
        return Json.MAPPER.convertValue(AdminModel.lookup(pool(pool), key), Lookup.class);
    }

    @Override
    public Preview preview(String pool, List<String> remove, Map<String, Integer> add, Map<String, Integer> weights) {
        return Json.MAPPER.convertValue(AdminModel.preview(pool(pool), remove, add, weights), Preview.class);
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        return runtime.demoState();
    }

    @Override
    public void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down) {
        runtime.updateDemo(id, latencyMs, errorRate, down);
        java.util.Map<String, Object> change = new java.util.LinkedHashMap<>();
        change.put("latencyMs", latencyMs);
        change.put("errorRate", errorRate);
        change.put("down", down);
        change.values().removeIf(java.util.Objects::isNull);
        engine.publish("demo", null, id, null, Json.write(change));
    }

    @Override
    public String configJson() {
        return Json.write(runtime.config());
    }

    @Override
    public List<String> applyConfig(String json) {
        return runtime.applyConfig(json);
    }

    @Override
    public Map<String, List<Map<String, Object>>> probeHistory() {
        return runtime.probeHistory();
    }

    @Override
    public void setSplit(int route, List<dev.fulcrum.engine.routing.Split.Arm> arms) {
        engine.setSplit(route, arms);
    }

    @Override
    public void promote(int route) {
        engine.promote(route);
    }

    @Override
    public void rollback(int route) {
        engine.rollback(route);
    }

    @Override
    public void close() {
        for (Consumer<EngineEvent> l : listeners) {
            engine.unsubscribe(l);
        }
        listeners.clear();
    }
}
