package dev.fulcrum.ui.requests;

import static dev.fulcrum.ui.requests.Samples.failed;
import static dev.fulcrum.ui.requests.Samples.request;
import static dev.fulcrum.ui.requests.Samples.routed;
import static dev.fulcrum.ui.requests.Samples.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.time.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** "Why this backend" for a recorded request: the record in words, and the live pool asked about the same request. */
class RecordedDecisionTest {
    private static Pool pool(StrategySpec spec, String... ids) {
        Engine e = Engine.manual(EngineSettings.DEFAULT, new ManualClock(), RandomSource.seeded(3));
        e.addPool(Engine.DEFAULT_POOL, spec);
        int port = 9001;
        for (String id : ids) {
            e.addBackend(Engine.DEFAULT_POOL, new BackendSpec(id, "http://127.0.0.1:" + port++, 1, null, false), false);
        }
        return e.pool(Engine.DEFAULT_POOL);
    }

    private static RequestSample hashedOnACookie(String key, long hash) {
        return new RequestSample("0:1", 0, "default", "GET", "/cart", null, "http", "HTTP/1.1", "10.0.0.9", key, hash,
                List.of(failed("a", "CONNECT_FAILURE"), success("b")), "b", 200, 0, 10, 4, true, false, false, false,
                false, List.of(new RequestSample.Header("Cookie", "sid=***")), List.of());
    }

    @Test
    void theRecordSaysTheKeyTheAttemptsAndHowItEnded() {
        assertThat(RecordedDecision.recorded(hashedOnACookie("u42", 0x5c1eL))).containsExactly(
                "Routed to pool default.",
                "Hashed \"u42\" to 0x0000000000005c1e.",
                "Tried a: connect-failure after 0.40 ms.",
                "Then b: success after 3.00 ms.",
                "b answered 200, after the retry.");
        assertThat(RecordedDecision.recorded(request("0:2", 0, "api", "/slow", 499, null,
                List.of(failed("api-1", "CLIENT_ABORT"))))).contains("Not hashed: the pool's strategy picked without a key.")
                .last().isEqualTo("The client hung up (499) while api-1 had it.");
    }

    @Test
    void theRecordSaysWhichRouteTookItItsArmItsMirrorOrItsShed() {
        RequestSample canary = request("0:3", 0, "canary", "/shop", 200, "c1", List.of(success("c1")));
        assertThat(RecordedDecision.recorded(routed(canary, new RequestSample.Routing(1, null, null, false, false))))
                .first().isEqualTo("Route 1 took it to pool canary.");
        assertThat(RecordedDecision.recorded(routed(canary, new RequestSample.Routing(2, "canary", null, false, false))))
                .first().isEqualTo("Route 2 took it, and its split sent it to pool canary.");
        assertThat(RecordedDecision.recorded(routed(canary, new RequestSample.Routing(0, null, null, true, false))))
                .first().isEqualTo("A copy that route 0 mirrored to pool canary: its answer went to no client.");

        RequestSample shed = routed(request("0:4", 0, "work", "/api/batch", 503, null, List.of()),
                new RequestSample.Routing(1, null, "batch", false, true));
        assertThat(RecordedDecision.recorded(shed)).first().isEqualTo("Route 1 took it to pool work.");
        assertThat(RecordedDecision.recorded(shed)).last()
                .isEqualTo("Shed at its class's ceiling: the proxy answered 503 without trying a backend.");
    }

    @Test
    void thePoolNowHashesTheRecordedKeyThoughTheRecordMasksTheCookie() {
        Pool p = pool(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "cookie:sid"), "a", "b", "c");
        DecisionTrace real = DecisionTrace.explain(p, new SimpleRequest("10.0.0.9", "GET", "/cart", Map.of(),
                Map.of("sid", "u42"), Map.of()));
        RequestSample r = hashedOnACookie("u42", real.keyHash());

        DecisionTrace now = DecisionTrace.explain(p, RecordedDecision.request(r), RandomSource.seeded(1),
                RecordedDecision.stickyBackend(r));

        assertThat(now.key()).isEqualTo("u42");
        assertThat(now.keyHash()).isEqualTo(real.keyHash());
        assertThat(now.picked()).isEqualTo(real.picked());
        List<String> lines = RecordedDecision.now(now, r);
        assertThat(lines.get(0)).startsWith("The pool as it is now, not as it was when the request ran: ");
        assertThat(lines.get(lines.size() - 1)).startsWith("Now it would go to " + real.picked());
    }

    @Test
    void aStickyRequestIsAskedWithTheBackendItsCookieChose() {
        Pool p = pool(StrategySpec.of(StrategySpec.ROUND_ROBIN), "a", "b", "c");
        RequestSample sticky = new RequestSample("0:1", 0, "default", "GET", "/", null, "http", "HTTP/1.1",
                "10.0.0.9", null, 0, List.of(success("c")), "c", 200, 0, 10, 4, false, true, false, false, false,
                List.of(), List.of());

        DecisionTrace now = DecisionTrace.explain(p, RecordedDecision.request(sticky), RandomSource.seeded(1),
                RecordedDecision.stickyBackend(sticky));

        assertThat(now.stickyCookie()).isEqualTo("c");
        assertThat(now.picked()).isEqualTo("c");
        assertThat(RecordedDecision.recorded(sticky)).contains(
                "Sticky: its cookie named c, which took it without asking the strategy.");
        assertThat(RecordedDecision.now(now, sticky)).last().isEqualTo("Now it would go to c, where it went first.");
    }

    @Test
    void anUnhashedRequestIsReadAsRecorded() {
        var r = RecordedDecision.request(new RequestSample("0:1", 0, "default", "POST", "/a", "x=1&y=%20z", "http",
                "HTTP/1.1", "10.0.0.9", null, 0, List.of(), null, 503, 0, 0, 0, false, false, false, true, false,
                List.of(new RequestSample.Header("X-User", "ann")), List.of()));

        assertThat(r.clientIp()).isEqualTo("10.0.0.9");
        assertThat(r.path()).isEqualTo("/a");
        assertThat(r.header("x-user")).isEqualTo("ann");
        assertThat(r.queryParam("y")).isEqualTo(" z");
        assertThat(r.queryParam("q")).isNull();
        assertThat(r.cookie("sid")).as("masked in the record").isNull();
    }
}
