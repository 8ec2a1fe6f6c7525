package dev.fulcrum.admin;

import dev.fulcrum.engine.Engine;
import java.util.List;
import java.util.Map;

/**
 * The {@link AdminRuntime} of an admin API test that needs only an engine: the proxy named at
 * {@code http://127.0.0.1:8080}, an empty config that no JSON replaces, no demo backends, an empty export. A test
 * overrides the part it looks at. Not a test itself.
 */
class EngineOnlyRuntime implements AdminRuntime {
    private final Engine engine;

    EngineOnlyRuntime(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Engine engine() {
        return engine;
    }

    @Override
    public String proxyUrl() {
        return "http://127.0.0.1:8080";
    }

    @Override
    public Object config() {
        return Map.of();
    }

    @Override
    public List<String> applyConfig(String json) {
        return List.of("not in this test");
    }

    @Override
    public void updateDemo(String id, Double latencyMs, Double errorRate, Boolean down) {
    }

    @Override
    public Map<String, Map<String, Object>> demoState() {
        return Map.of();
    }

    @Override
    public String export(String format, String pool) {
        return "";
    }
}
