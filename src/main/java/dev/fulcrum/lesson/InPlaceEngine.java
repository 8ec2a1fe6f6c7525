package dev.fulcrum.lesson;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The window's engine (embedded or attached) turned into a lesson's: the lesson's config applied in place through
 * the engine client, the way {@code PUT /api/config} applies one, so the window keeps its session, its views and its
 * ports. What a running engine cannot change in place is kept as it runs: its listeners ({@code proxy},
 * {@code admin}), the ports of demo backends that run already, and its retries, timeouts and sticky sessions unless
 * the lesson file sets them (then the engine's refusal says what it needs a restart for). Two things are set afresh that an in-place apply
 * would otherwise carry over: a pool whose strategy stayed the same is switched to {@code random} and back, so the
 * lesson's strategy starts from its first pick (smooth weighted round robin's a a b a c a a, round robin's first
 * backend); and a demo backend left down by an earlier lesson is brought up.
 *
 * <p>A backend kept from before keeps its breaker and its health; a lesson that depends on them says so in its
 * narration. Whatever else the engine refuses (a lesson that changes {@code timeouts}, say) is the answer of
 * {@link #apply}.
 *
 * <p>{@link #close()} puts back what ran before: the config as it was (the lesson's added demo backends stop, its
 * strategy and breaker settings go) and each demo backend's faults as they were (a lesson that failed demo-b every
 * request must not leave it failing). Closing twice restores once.
 */
final class InPlaceEngine implements LessonEngine {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final EngineClient client;
    private final URI proxy;
    private final String configBefore;
    private final Map<String, Map<String, Object>> demosBefore;
    private final AtomicBoolean closed = new AtomicBoolean();

    private InPlaceEngine(EngineClient client, String configBefore, Map<String, Map<String, Object>> demosBefore) {
        this.client = client;
        this.proxy = URI.create(client.state().proxy());
        this.configBefore = configBefore;
        this.demosBefore = demosBefore;
    }

    static InPlaceEngine apply(EngineClient client, Lesson lesson) {
        String before = client.configJson();
        FulcrumConfig running = ConfigLoader.parse(before);
        Map<String, Map<String, Object>> demos = client.demoState();
        FulcrumConfig next = adapted(lesson.config(), lesson.sets(), running, demos);
        List<String> problems = client.applyConfig(ConfigWriter.toJson(next));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the engine refuses the lesson's config: " + String.join("; ", problems));
        }
        Map<String, Object> random = Map.of("type", StrategySpec.RANDOM);
        next.allPools().forEach((name, pool) -> {
            PoolConfig was = running.allPools().get(name);
            if (was != null && was.strategy().equals(pool.strategy())) {
                // the apply kept the strategy as it was, mid-cycle: built again from nothing, it starts afresh
                client.setStrategy(name, random);
                client.setStrategy(name, strategyObject(pool.strategy()));
            }
        });
        for (PoolConfig pool : next.allPools().values()) {
            for (DemoBackendConfig d : pool.demoBackends()) {
                Map<String, Object> was = demos.get(d.id());
                if (was != null && Boolean.TRUE.equals(was.get("down"))) {
                    client.updateDemo(d.id(), null, null, false);
                }
            }
        }
        return new InPlaceEngine(client, before, demos);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> strategyObject(StrategySpec spec) {
        return MAPPER.convertValue(ConfigWriter.toTree(spec), Map.class);
    }

    /**
     * The lesson's config with the running listeners, the running demo backends' ports, and the running retries,
     * timeouts and sticky sessions where the lesson file does not set them ({@code sets}: its config's fields).
     */
    static FulcrumConfig adapted(FulcrumConfig lesson, Set<String> sets, FulcrumConfig running,
                                 Map<String, Map<String, Object>> demos) {
        FulcrumConfig c = LessonConfigs.withRestartParts(lesson, running.proxy(), running.admin(),
                sets.contains("retries") ? lesson.retries() : running.retries(),
                sets.contains("timeouts") ? lesson.timeouts() : running.timeouts(),
                sets.contains("stickySession") ? lesson.stickySession() : running.stickySession());
        return LessonConfigs.demoPorts(c, d -> demos.getOrDefault(d.id(), Map.of()).get("port") instanceof Number n
                ? n.intValue() : d.port());
    }

    @Override
    public EngineClient client() {
        return client;
    }

    @Override
    public URI proxy() {
        return proxy;
    }

    /** Puts back the config and the demo backends' faults that ran before the lesson; the engine stays up. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<String> problems = client.applyConfig(configBefore);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the engine refuses the config it ran before the lesson: "
                    + String.join("; ", problems));
        }
        Map<String, Map<String, Object>> now = client.demoState();
        demosBefore.forEach((id, was) -> {
            if (now.containsKey(id)) {
                client.updateDemo(id, number(was.get("latencyMs")), number(was.get("errorRate")),
                        Boolean.TRUE.equals(was.get("down")));
            }
        });
    }

    private static Double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }
}
