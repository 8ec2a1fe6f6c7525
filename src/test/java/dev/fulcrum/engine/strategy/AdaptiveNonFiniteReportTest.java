package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Lease;
import dev.fulcrum.engine.Outcome;
import dev.fulcrum.engine.Pool;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.fulcrum.health.MetricsPoller;
import dev.fulcrum.time.ManualClock;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A backend's /metrics.json with a latency too large for a double ("latencyMs": 1e999) parses as Infinity and
 * passes MetricsPoller's isNumber() check; Adaptive then scores that backend NaN (Infinity / Infinity), the
 * cumulative pick weights become NaN, and the binary search always lands on candidate 0.
 */
class AdaptiveNonFiniteReportTest {
    private static HttpServer serve(String body) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        s.createContext("/metrics.json", ex -> {
            ex.sendResponseHeaders(200, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
        s.start();
        return s;
    }

    @Test
    void aBackendReportingAnInfiniteLatencyDoesNotTakeEveryRequest() throws Exception {
        HttpServer slow = serve("{\"cpu\":0.9,\"inflight\":50,\"latencyMs\":1e999}");
        HttpServer fine = serve("{\"cpu\":0.1,\"inflight\":1,\"latencyMs\":5}");
        try {
            ManualClock clock = new ManualClock();
            Engine engine = Engine.manual(EngineSettings.DEFAULT, clock, RandomSource.seeded(1));
            Pool pool = engine.addPool("default", StrategySpec.of(StrategySpec.ADAPTIVE));
            engine.addBackend("default", new BackendSpec("a", "http://127.0.0.1:" + slow.getAddress().getPort(), 1,
                    null, false), false);
            engine.addBackend("default", new BackendSpec("b", "http://127.0.0.1:" + fine.getAddress().getPort(), 1,
                    null, false), false);
            MetricsPoller poller = new MetricsPoller(engine, 1000, 60_000, clock);
            poller.pollAll().get();
            poller.close();
            assertThat(engine.backend("a").metrics()).as("a's report, not a number, is refused like a malformed one").isNull();
            assertThat(engine.backend("b").metrics()).as("b's report").isNotNull();

            Map<String, Integer> counts = new HashMap<>();
            for (int i = 0; i < 1000; i++) {
                Lease l = pool.pick(SimpleRequest.get("10.0.0.1", "/"));
                counts.merge(l.backend().id(), 1, Integer::sum);
                l.release(Outcome.SUCCESS);
            }
            // a's report counts as none (scored at the others' average), so a does not take them all (a NaN score
            // would send every request to a)
            assertThat(counts.getOrDefault("a", 0)).isBetween(300, 700);
        } finally {
            slow.stop(0);
            fine.stop(0);
        }
    }
}
