package dev.fulcrum.admin;

import dev.fulcrum.engine.BackendSpec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three places that take values from outside agree on every limit of {@link Limits}: a config file
 * ({@code ConfigLoader}, as {@code --check-config} reads it), the admin API over real HTTP, and the engine's own
 * commands. For each bound the value just inside is accepted by all three and the value just outside refused by
 * all three, each refusal a 400 (or config error) naming the field.
 */
class LimitsAgreementTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger IDS = new AtomicInteger();
    private static RunningFulcrum fulcrum;

    @BeforeAll
    static void start() {
        fulcrum = RunningFulcrum.demoApp();
    }

    @AfterAll
    static void stop() {
        fulcrum.close();
    }

    /** One place's answer: accepted, or refused with this message. */
    private record Answer(boolean accepted, String message) {
        static final Answer OK = new Answer(true, null);
    }

    private interface Place {
        Answer take(Object value) throws Exception;
    }

    private static String unique() {
        return "b" + IDS.incrementAndGet();
    }

    private static String json(Object o) throws Exception {
        return JSON.writeValueAsString(o);
    }

    private static Engine engine() {
        Engine e = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(1));
        e.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        return e;
    }

    private static Answer config(Map<String, Object> tree) {
        try {
            ConfigLoader.parse(json(tree));
            return Answer.OK;
        } catch (ConfigException e) {
            return new Answer(false, e.getMessage());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Answer admin(String method, String path, Object body) throws Exception {
        RunningFulcrum.Answer a = fulcrum.call(method, path, body == null ? null : json(body));
        assertThat(a.status()).as(method + " " + path + " " + a.body()).isIn(200, 201, 202, 400);
        return a.status() == 400 ? new Answer(false, a.body()) : Answer.OK;
    }

    private static Answer engine(Runnable command) {
        try {
            command.run();
            return Answer.OK;
        } catch (EngineException e) {
            assertThat(e.status()).isEqualTo(400);
            return new Answer(false, e.getMessage());
        }
    }

    private static Map<String, Object> backend(String id, Object url, Object weight, Object maxInFlight) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("id", id);
        b.put("url", url);
        b.put("weight", weight);
        b.put("maxInFlight", maxInFlight);
        return b;
    }

    private static Map<String, Object> withBackends(Map<String, Object> b) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("backends", List.of(b));
        return c;
    }

    /** The three places for one backend field, the others held valid. */
    private static List<Place> backendField(String field) {
        Map<String, Object> valid = backend("x", "http://127.0.0.1:9", 1, null);
        return List.of(
                v -> {
                    Map<String, Object> b = new LinkedHashMap<>(valid);
                    b.put(field, v);
                    return config(withBackends(b));
                },
                v -> {
                    Map<String, Object> b = new LinkedHashMap<>(valid);
                    b.put("id", unique());
                    b.put(field, v);
                    return admin("POST", "/api/backends", b);
                },
                v -> {
                    Map<String, Object> b = new LinkedHashMap<>(valid);
                    b.put(field, v);
                    return engine(() -> engine().addBackend(Engine.DEFAULT_POOL, new BackendSpec((String) b.get("id"),
                            (String) b.get("url"), (Integer) b.get("weight"), (Integer) b.get("maxInFlight"), false),
                            false));
                });
    }

    /** The three places for one field of a strategy of {@code type}. */
    private static List<Place> strategyField(String type, String field) {
        return List.of(
                v -> {
                    Map<String, Object> c = withBackends(backend("x", "http://127.0.0.1:9", 1, null));
                    c.put("strategy", strategy(type, field, v));
                    return config(c);
                },
                v -> admin("PUT", "/api/strategy", strategy(type, field, v)),
                v -> engine(() -> engine().setStrategy(Engine.DEFAULT_POOL,
                        spec(strategy(type, field, v)))));
    }

    /** The strategy object as the engine's own API takes it: its type and its settings by name. */
    private static StrategySpec spec(Map<String, Object> strategy) {
        Map<String, Object> options = new LinkedHashMap<>(strategy);
        options.remove("type");
        return new StrategySpec((String) strategy.get("type"), options);
    }

    private static Map<String, Object> strategy(String type, String field, Object v) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", type);
        s.put(field, v);
        return s;
    }

    /** Holds every place to accept each of {@code inside} and refuse each of {@code outside}, naming the field. */
    private static void agree(String field, List<Place> places, List<?> inside, List<?> outside) throws Exception {
        List<String> disagreements = new ArrayList<>();
        for (Object v : inside) {
            for (int i = 0; i < places.size(); i++) {
                Answer a = places.get(i).take(v);
                if (!a.accepted()) {
                    disagreements.add(field + "=" + v + " refused by place " + i + ": " + a.message());
                }
            }
        }
        for (Object v : outside) {
            for (int i = 0; i < places.size(); i++) {
                Answer a = places.get(i).take(v);
                if (a.accepted()) {
                    disagreements.add(field + "=" + v + " accepted by place " + i);
                } else if (!a.message().contains(field)) {
                    disagreements.add(field + "=" + v + " refused by place " + i + " without naming it: " + a.message());
                }
            }
        }
        assertThat(disagreements).as("places: 0 config file, 1 admin API, 2 engine").isEmpty();
    }

    @Test
    void weight() throws Exception {
        agree("weight", backendField("weight"), List.of(0, 1, 1000), List.of(-1, 1001));
    }

    @Test
    void reweightingTakesTheSameRangeFromTheAdminApiAndTheEngine() throws Exception {
        String id = unique();
        assertThat(admin("POST", "/api/backends", backend(id, "http://127.0.0.1:9", 1, null)).accepted()).isTrue();
        Engine e = engine();
        e.addBackend(Engine.DEFAULT_POOL, new BackendSpec("x", "http://127.0.0.1:9", 1, null, false), false);
        List<Place> places = List.of(
                v -> admin("PUT", "/api/backends/" + id + "/weight", Map.of("weight", v)),
                v -> engine(() -> e.setWeight("x", (Integer) v)));
        agree("weight", places, List.of(0, 1000), List.of(-1, 1001));
    }

    /** A split arm's weight: a config's {@code routes[0].split[1].weight}, the body of a new split, the engine's. */
    @Test
    void splitWeight() throws Exception {
        String config = """
                {"proxy": {"host": "127.0.0.1", "port": 0}, "admin": {"host": "127.0.0.1", "port": 0},
                 "healthCheck": {"enabled": false}, "backends": [{"id": "d", "url": "http://127.0.0.1:9"}],
                 "pools": {"stable": {"backends": [{"id": "s", "url": "http://127.0.0.1:9"}]},
                           "canary": {"backends": [{"id": "c", "url": "http://127.0.0.1:9"}]}},
                 "routes": [{"pathPrefix": "/shop",
                             "split": [{"pool": "stable", "weight": 95}, {"pool": "canary", "weight": %s}]}]}
                """;
        try (RunningFulcrum split = RunningFulcrum.wholeApp(config.formatted(5)).start()) {
            List<Place> places = List.of(
                    v -> {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> tree = JSON.readValue(config.formatted(v), Map.class);
                        return config(tree);
                    },
                    v -> {
                        RunningFulcrum.Answer a = split.call("PUT", "/api/routes/0/split",
                                json(List.of(Map.of("pool", "stable", "weight", 95), Map.of("pool", "canary", "weight", v))));
                        assertThat(a.status()).as(a.body()).isIn(200, 400);
                        return a.status() == 400 ? new Answer(false, a.body()) : Answer.OK;
                    },
                    v -> engine(() -> split.engine().setSplit(0, List.of(
                            new dev.fulcrum.engine.routing.Split.Arm("stable", 95),
                            new dev.fulcrum.engine.routing.Split.Arm("canary", (Integer) v)))));
            agree("weight", places, List.of(0, 1000), List.of(-1, 1001));
        }
    }

    @Test
    void id() throws Exception {
        List<Place> places = backendField("id");
        // the id is the value here, so the admin API's place must not replace it with a fresh one
        places = List.of(places.get(0),
                v -> admin("POST", "/api/backends", backend((String) v, "http://127.0.0.1:9", 1, null)),
                places.get(2));
        agree("id", places, List.of("a", "A.b_c-9", "x".repeat(64)),
                List.of("", "x".repeat(65), "a b", "a/b", "ä"));
    }

    @Test
    void url() throws Exception {
        agree("url", backendField("url"),
                List.of("http://127.0.0.1:1", "http://127.0.0.1:65535", "http://example.test:8080", "http://[::1]:80"),
                List.of("http://127.0.0.1:0", "http://127.0.0.1:65536", "http://127.0.0.1:80/", "https://127.0.0.1:8443",
                        "http://127.0.0.1", "http://127.0.0.1:80/app", "http://u@127.0.0.1:80", "127.0.0.1:80",
                        "ftp://x:1"));
    }

    @Test
    void maxInFlight() throws Exception {
        agree("maxInFlight", backendField("maxInFlight"), List.of(1, 1000), List.of(0, -1));
    }

    @Test
    void labels() throws Exception {
        Map<String, Object> valid = backend("x", "http://127.0.0.1:9", 1, null);
        List<Place> places = List.of(
                v -> {
                    Map<String, Object> b = new LinkedHashMap<>(valid);
                    b.put("labels", v);
                    return config(withBackends(b));
                },
                v -> {
                    Map<String, Object> b = new LinkedHashMap<>(valid);
                    b.put("id", unique());
                    b.put("labels", v);
                    return admin("POST", "/api/backends", b);
                },
                v -> {
                    @SuppressWarnings("unchecked")
                    Map<String, String> labels = (Map<String, String>) v;
                    return engine(() -> engine().addBackend(Engine.DEFAULT_POOL,
                            new BackendSpec("x", "http://127.0.0.1:9", 1, null, false, labels), false));
                });
        Map<String, String> sixteen = new LinkedHashMap<>();
        Map<String, String> seventeen = new LinkedHashMap<>();
        for (int i = 0; i < 17; i++) {
            if (i < 16) {
                sixteen.put("l" + i, "v");
            }
            seventeen.put("l" + i, "v");
        }
        String name32 = "n" + "x".repeat(31);
        agree("labels", places,
                List.of(Map.of(), Map.of("zone", "b"), sixteen, Map.of(name32, "v"), Map.of("cost", "v".repeat(64)),
                        Map.of("a_1", "")),
                List.of(seventeen, Map.of("Zone", "b"), Map.of("1a", "b"), Map.of(name32 + "x", "b"),
                        Map.of("a-b", "c"), Map.of("cost", "v".repeat(65))));
    }

    @Test
    void virtualNodes() throws Exception {
        agree("virtualNodes", strategyField(StrategySpec.CONSISTENT_HASH, "virtualNodes"),
                List.of(1, 10_000), List.of(0, 10_001));
    }

    @Test
    void balanceFactor() throws Exception {
        agree("balanceFactor", strategyField(StrategySpec.CONSISTENT_HASH, "balanceFactor"),
                List.of(1.01, 1.25, 100.0, 1e6), List.of(1.0, 0.5, 0.0, -2.0));
    }

    @Test
    void hashingKey() throws Exception {
        agree("key", strategyField(StrategySpec.MAGLEV, "key"),
                List.of("ip", "path", "header:X-User", "cookie:sid", "query:k"),
                List.of("body", "header:", "header:X User", "query:", "IP", ":x"));
    }

    @Test
    void choices() throws Exception {
        agree("choices", strategyField(StrategySpec.POWER_OF_TWO, "choices"), List.of(2, 100), List.of(1, 101));
    }

    @Test
    void tableSize() throws Exception {
        assertThat(Limits.isPrime(1_000_003)).isTrue();
        assertThat(Limits.isPrime(1_000_033)).isTrue();
        agree("tableSize", strategyField(StrategySpec.MAGLEV, "tableSize"),
                List.of(3, 65_537, 1_000_003), List.of(2, 65_536, 1_000_033));
    }

    @Test
    void strategyDurations() throws Exception {
        List<Long> inside = List.of(1L, Limits.MAX_MS);
        List<Long> outside = List.of(0L, -1L, Limits.MAX_MS + 1);
        agree("decayMs", strategyField(StrategySpec.FASTEST_RESPONSE, "decayMs"), inside, outside);
        agree("staleAfterMs", strategyField(StrategySpec.ADAPTIVE, "staleAfterMs"), inside, outside);
    }

    @Test
    void adaptiveWeights() throws Exception {
        agree("weights", strategyField(StrategySpec.ADAPTIVE, "weights"),
                List.of(Map.of("cpu", 1.0), Map.of("cpu", 0.0, "latency", 0.5)),
                List.of(Map.of("cpu", -1.0), Map.of("disk", 1.0), Map.of(), Map.of("cpu", 0.0)));
    }

    @Test
    void aFieldTheStrategyDoesNotUse() throws Exception {
        agree("virtualNodes", strategyField(StrategySpec.ROUND_ROBIN, "virtualNodes"), List.of(), List.of(160));
        agree("tableSize", strategyField(StrategySpec.CONSISTENT_HASH, "tableSize"), List.of(), List.of(65_537));
    }

    @Test
    void demoFaults() throws Exception {
        for (String field : List.of("latencyMs", "errorRate")) {
            List<Place> places = List.of(
                    v -> {
                        Map<String, Object> d = new LinkedHashMap<>(Map.of("id", "d", "port", 0));
                        d.put(field, v);
                        return config(new LinkedHashMap<>(Map.of("demoBackends", List.of(d))));
                    },
                    v -> admin("PUT", "/api/demo/demo-a", Map.of(field, v)));
            if (field.equals("latencyMs")) {
                agree(field, places, List.of(0, 60_000), List.of(-1, 60_001));
            } else {
                agree(field, places, List.of(0.0, 1.0), List.of(-0.01, 1.01));
            }
        }
        admin("PUT", "/api/demo/demo-a", Map.of("latencyMs", 0, "errorRate", 0.0));
    }

    @Test
    void settingsDurationsAreTheSameForTheFileAndPutApiConfig() throws Exception {
        for (String f : new String[] {"intervalMs", "timeoutMs"}) {
            String[] path = {"healthCheck", f};
            List<Place> places = List.of(
                    v -> config(withSection(withBackends(backend("x", "http://127.0.0.1:9", 1, null)), path, v)),
                    v -> admin("PUT", "/api/config", withSection(running(), path, v)));
            agree("healthCheck." + f, places, List.of(1L, Limits.HEALTH_CHECK_MS.max()),
                    List.of(0L, Limits.HEALTH_CHECK_MS.max() + 1));
        }
        for (String[] f : new String[][] {{"circuitBreaker", "openMs"}, {"outlierDetection", "baseEjectionMs"},
                {"circuitBreaker", "slowCallMs"}}) {
            List<Place> places = List.of(
                    v -> config(withSection(withBackends(backend("x", "http://127.0.0.1:9", 1, null)), f, v)),
                    v -> admin("PUT", "/api/config", withSection(running(), f, v)));
            agree(f[0] + "." + f[1], places, List.of(1L, Limits.MAX_MS), List.of(0L, Limits.MAX_MS + 1));
        }
        List<Place> slowStart = List.of(
                v -> config(top(withBackends(backend("x", "http://127.0.0.1:9", 1, null)), "slowStartMs", v)),
                v -> admin("PUT", "/api/config", top(running(), "slowStartMs", v)));
        agree("slowStartMs", slowStart, List.of(0L, Limits.MAX_MS), List.of(-1L, Limits.MAX_MS + 1));
        admin("PUT", "/api/config", top(running(), "slowStartMs", 0));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> running() throws Exception {
        return JSON.readValue(fulcrum.get("/api/config").body(), LinkedHashMap.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withSection(Map<String, Object> c, String[] f, Object v) {
        Map<String, Object> section = new LinkedHashMap<>((Map<String, Object>) c.getOrDefault(f[0], Map.of()));
        section.put(f[1], v);
        if (f[0].equals("healthCheck")) {
            section.put("enabled", false);
        }
        c.put(f[0], section);
        return c;
    }

    private static Map<String, Object> top(Map<String, Object> c, String field, Object v) {
        c.put(field, v);
        return c;
    }
}
