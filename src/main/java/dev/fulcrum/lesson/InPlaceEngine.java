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
 */
final class InPlaceEngine implements LessonEngine {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final EngineClient client;
    private final URI proxy;

    private InPlaceEngine(EngineClient client) {
        this.client = client;
        this.proxy = URI.create(client.state().proxy());
    }

    static InPlaceEngine apply(EngineClient client, Lesson lesson) {
        FulcrumConfig running = ConfigLoader.parse(client.configJson());
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
        return new InPlaceEngine(client);
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

    @Override
    public void close() {
        // the window's engine is the window's
    }
}
