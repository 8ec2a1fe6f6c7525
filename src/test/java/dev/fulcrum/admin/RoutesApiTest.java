package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.ArmStats;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Routes in {@code GET /api/state}, {@code PUT /api/routes/{index}/split}, promote and rollback, their events and
 * their series in {@code /metrics}, over real HTTP against a running Fulcrum (docs/REFERENCE.md §4). Requests are
 * counted into the engine's own objects (each arm's figures, the mirror's counters, the ceiling's sheds), as the
 * proxy counts them, so each figure is known.
 */
class RoutesApiTest {
    /**
     * routes[0]: a header route with a class and a ceiling; routes[1]: a sticky split with a mirror and a guard;
     * routes[2]: a plain path route.
     */
    private static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0},
              "healthCheck": {"enabled": false},
              "backends": [{"id": "d1", "url": "%s"}],
              "pools": {
                "stable": {"backends": [{"id": "s1", "url": "%s"}]},
                "canary": {"backends": [{"id": "c1", "url": "%s"}]},
                "shadow": {"backends": [{"id": "m1", "url": "%s"}]}
              },
              "routes": [
                {"match": {"pathPrefix": "/shop", "headers": {"X-Canary": "1", "X-Env": {"regex": "^stag"}},
                           "method": ["POST", "GET"]},
                 "pool": "canary", "class": "vip", "maxInFlightPerBackend": 4},
                {"pathPrefix": "/shop", "split": [{"pool": "stable", "weight": 95}, {"pool": "canary", "weight": 5}],
                 "stickyBy": "cookie:user", "mirror": {"pool": "shadow", "percent": 10},
                 "guard": {"arm": "canary", "errorRateAbove": 0.05, "minRequests": 10, "forMs": 1000}},
                {"pathPrefix": "/plain", "pool": "stable", "stripPrefix": true}
              ]
            }
            """;

    private final List<RecordingBackend> backends = new ArrayList<>();
    private RunningFulcrum f;

    @BeforeEach
    void start() {
        for (String name : List.of("d1", "s1", "c1", "m1")) {
            backends.add(new RecordingBackend(name));
        }
        f = RunningFulcrum.wholeApp(CONFIG.formatted(backends.stream().map(RecordingBackend::url).toArray()))
                .start();
    }

    @AfterEach
    void stop() {
        f.close();
        backends.forEach(RecordingBackend::close);
    }

    private static JsonNode json(String s) {
        return AdminApiTest.json(s);
    }

    private JsonNode route(int index) {
        for (JsonNode r : json(f.get("/api/state").body()).get("routes")) {
            if (r.get("index").asInt() == index) {
                return r;
            }
        }
        throw new AssertionError("no route " + index);
    }

    private static List<Integer> weights(JsonNode route) {
        List<Integer> out = new ArrayList<>();
        route.get("split").forEach(a -> out.add(a.get("weight").asInt()));
        return out;
    }

    private static final Map<String, Integer> NINETY_TEN = Map.of("stable", 90, "canary", 10);

    // ---------------------------------------------------------------- state

    @Test
    void stateListsEachRouteWithItsMatchSplitMirrorAndGuard() {
        JsonNode s = json(f.get("/api/state").body());
        JsonNode routes = s.get("routes");
        assertThat(routes).hasSize(3);

        JsonNode header = route(0);
        assertThat(header.get("pathPrefix").asText()).isEqualTo("/shop");
        assertThat(header.get("pool").asText()).isEqualTo("canary");
        assertThat(header.get("match")).isEqualTo(json("""
                {"method": ["GET", "POST"], "headers": {"X-Canary": "1", "X-Env": {"regex": "^stag"}}}"""));
        assertThat(header.get("class").asText()).isEqualTo("vip");
        assertThat(header.get("maxInFlightPerBackend").asInt()).isEqualTo(4);
        assertThat(header.get("split").isNull()).isTrue();
        assertThat(header.get("shed").asLong()).isZero();

        JsonNode split = route(1);
        assertThat(split.get("pool").isNull()).isTrue();
        assertThat(split.get("match").isNull()).as("a path prefix alone: no match object").isTrue();
        assertThat(split.get("stickyBy").asText()).isEqualTo("cookie:user");
        assertThat(split.get("split")).hasSize(2);
        JsonNode stable = split.get("split").get(0);
        assertThat(stable.get("pool").asText()).isEqualTo("stable");
        assertThat(stable.get("weight").asInt()).isEqualTo(95);
        assertThat(stable.get("share").asDouble()).isEqualTo(0.95);
        List<String> armFields = new ArrayList<>();
        stable.fieldNames().forEachRemaining(armFields::add);
        assertThat(armFields).containsExactly("pool", "weight", "share", "measuredShare", "requests", "errors", "rps",
                "errorRate", "p50Ms", "p99Ms");
        assertThat(stable.get("measuredShare").asDouble()).as("no requests yet").isZero();
        assertThat(split.get("mirror")).isEqualTo(json("""
                {"pool": "shadow", "percent": 10.0, "maxBodyBytes": 65536, "sent": 0, "errors": 0, "failed": 0,
                 "tooLarge": 0, "dropped": 0}"""));
        JsonNode guard = split.get("guard");
        assertThat(guard.get("arm").asText()).isEqualTo("canary");
        assertThat(guard.get("errorRateAbove").asDouble()).isEqualTo(0.05);
        assertThat(guard.get("p99AboveBaselineBy").isNull()).isTrue();
        assertThat(guard.get("minRequests").asInt()).isEqualTo(10);
        assertThat(guard.get("forMs").asLong()).isEqualTo(1000);
        assertThat(guard.get("state").asText()).isIn("watching", "too-few");
        assertThat(guard.has("since")).isTrue();
        assertThat(guard.has("reason")).isTrue();

        JsonNode plain = route(2);
        assertThat(plain.get("stripPrefix").asBoolean()).isTrue();
        for (String absent : List.of("split", "stickyBy", "mirror", "guard", "class", "strategy",
                "maxInFlightPerBackend")) {
            assertThat(plain.get(absent).isNull()).as(absent).isTrue();
        }

        assertThat(s.get("pools").get("shadow").get("mirror")).isEqualTo(json("""
                {"sent": 0, "errors": 0, "failed": 0, "tooLarge": 0, "dropped": 0}"""));
        assertThat(s.get("pools").get("stable").has("mirror")).as("no route mirrors to stable").isFalse();
    }

    @Test
    void aRouteWithoutAPathPrefixSaysNull() {
        f.engine().setRouter(new Router(List.of(new Router.Route(
                new dev.fulcrum.engine.routing.RouteMatch(null, null, java.util.Set.of("GET"), List.of(), List.of(),
                        List.of()), "stable", false, null, null, null, null, null, null))));
        JsonNode r = route(0);
        assertThat(r.get("pathPrefix").isNull()).isTrue();
        assertThat(r.get("match")).isEqualTo(json("{\"method\": [\"GET\"]}"));
    }

    @Test
    void theMirrorsCountsAndTheShedsAreTheEnginesOwn() {
        Router.Route split = f.engine().router().route(1);
        split.mirror().answered(200);
        split.mirror().answered(503);
        split.mirror().answered(0);
        split.mirror().tooLarge();
        split.mirror().dropped();
        f.engine().router().route(0).ceiling().shed();

        assertThat(route(1).get("mirror")).isEqualTo(json("""
                {"pool": "shadow", "percent": 10.0, "maxBodyBytes": 65536, "sent": 3, "errors": 2, "failed": 1,
                 "tooLarge": 1, "dropped": 1}"""));
        assertThat(json(f.get("/api/state").body()).get("pools").get("shadow").get("mirror")).isEqualTo(json("""
                {"sent": 3, "errors": 2, "failed": 1, "tooLarge": 1, "dropped": 1}"""));
        assertThat(route(0).get("shed").asLong()).isEqualTo(1);
    }

    @Test
    void bothClientsReadTheStateBackIntoTheSameRecords() {
        // the guard's first judgement (too few requests) made, so both reads see the same state
        await().atMost(Duration.ofSeconds(10)).until(() -> route(1).get("guard").get("state").asText()
                .equals("too-few"));
        InProcessEngineClient local = new InProcessEngineClient(f.app());
        try (HttpEngineClient remote = new HttpEngineClient(URI.create(f.adminUrl()), null)) {
            EngineState a = local.state();
            EngineState b = remote.state();
            assertThat(b.routes()).isEqualTo(a.routes());
            EngineState.RouteInfo split = a.routes().stream().filter(r -> r.index() == 1).findFirst().orElseThrow();
            assertThat(split.split()).extracting(EngineState.ArmInfo::pool).containsExactly("stable", "canary");
            assertThat(split.split()).extracting(EngineState.ArmInfo::weight).containsExactly(95, 5);
            assertThat(split.stickyBy()).isEqualTo("cookie:user");
            assertThat(split.mirror().pool()).isEqualTo("shadow");
            assertThat(split.guard().arm()).isEqualTo("canary");
            assertThat(split.guard().errorRateAbove()).isEqualTo(0.05);
            EngineState.RouteInfo header = a.routes().stream().filter(r -> r.index() == 0).findFirst().orElseThrow();
            assertThat(header.routeClass()).isEqualTo("vip");
            assertThat(header.maxInFlightPerBackend()).isEqualTo(4);
            assertThat(header.match()).containsKey("headers");
            assertThat(b.pools().get("shadow").mirror()).isEqualTo(new EngineState.MirrorCounts(0, 0, 0, 0, 0));
            assertThat(b.pools().get("stable").mirror()).isNull();
        } finally {
            local.close();
        }
    }

    // ---------------------------------------------------------------- split, promote, rollback

    @Test
    void aNewSplitIsAnsweredWithTheRouteAndIsAnEventNamingIt() throws Exception {
        try (SseTap tap = SseTap.open(f.adminUrl(), null)) {
            RunningFulcrum.Answer a = f.call("PUT", "/api/routes/1/split",
                    "[{\"pool\": \"stable\", \"weight\": 90}, {\"pool\": \"canary\", \"weight\": 10}]");
            assertThat(a.status()).as(a.body()).isEqualTo(200);
            JsonNode r = json(a.body());
            assertThat(r.get("index").asInt()).isEqualTo(1);
            assertThat(weights(r)).containsExactly(90, 10);
            assertThat(r.get("split").get(1).get("share").asDouble()).isEqualTo(0.1);
            assertThat(weights(route(1))).containsExactly(90, 10);
            await().atMost(Duration.ofSeconds(10)).until(() -> tap.events().stream()
                    .anyMatch(e -> e.get("type").asText().equals("split")));
            JsonNode e = tap.events().stream().filter(x -> x.get("type").asText().equals("split")).findFirst()
                    .orElseThrow();
            assertThat(e.get("route").asInt()).isEqualTo(1);
            assertThat(e.get("from").asText()).isEqualTo("stable=95 canary=5");
            assertThat(e.get("to").asText()).isEqualTo("stable=90 canary=10");
            assertThat(tap.events().stream().filter(x -> !x.get("type").asText().equals("split")))
                    .allSatisfy(x -> assertThat(x.has("route")).as("only a route's events name one").isFalse());
        }
    }

    @Test
    void promoteSendsEveryoneToTheLastArmAndRollbackToTheFirst() {
        RunningFulcrum.Answer p = f.call("POST", "/api/routes/1/promote", null);
        assertThat(p.status()).as(p.body()).isEqualTo(200);
        assertThat(weights(json(p.body()))).containsExactly(0, 100);
        assertThat(weights(route(1))).containsExactly(0, 100);
        RunningFulcrum.Answer r = f.call("POST", "/api/routes/1/rollback", null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(weights(json(r.body()))).containsExactly(100, 0);
        assertThat(json(r.body()).get("split").get(0).get("share").asDouble()).isEqualTo(1.0);
    }

    @Test
    void aBadSplitIsRefusedNamingTheFieldAndNothingChanges() {
        String[][] cases = {
            {"[{\"pool\": \"canary\", \"weight\": 5}, {\"pool\": \"stable\", \"weight\": 95}]",
                "split[0].pool: must be stable, the route's arm 0 (got: canary)"},
            {"[{\"pool\": \"stable\", \"weight\": 95}, {\"pool\": \"canary\", \"weight\": 2000}]",
                "split[1].weight: must be between 0 and 1000 (got: 2000)"},
            {"[{\"pool\": \"stable\", \"weight\": 95}, {\"pool\": \"canary\", \"weight\": \"x\"}]",
                "split[1].weight: must be an integer (got: \"x\")"},
            {"[{\"pool\": \"stable\", \"weight\": 95}, {\"pool\": \"canary\", \"weight\": 5.0}]",
                "split[1].weight: must be an integer (got: 5.0)"},
            {"[{\"pool\": \"stable\", \"weight\": 0}, {\"pool\": \"canary\", \"weight\": 0}]",
                "split: at least one weight must be above 0 (got: all 0)"},
            {"[{\"pool\": \"stable\", \"weight\": 95}, {\"pool\": \"canary\"}]",
                "split[1].weight: required (got: missing)"},
            {"[{\"pool\": \"stable\", \"weight\": 100}]",
                "split: must list the route's 2 arms (stable=95 canary=5) (got: 1)"},
            {"{\"stable\": 90, \"canary\": 10}", "split: must be an array"},
            {"", "split: must be an array (got: empty body)"},
            {"[{\"pool\": \"stable\", \"weight\": 95", "body: not valid JSON"},
        };
        for (String[] c : cases) {
            RunningFulcrum.Answer a = f.call("PUT", "/api/routes/1/split", c[0]);
            assertThat(a.status()).as(c[0] + " -> " + a.body()).isEqualTo(400);
            JsonNode e = json(a.body());
            assertThat(e.get("status").asInt()).isEqualTo(400);
            assertThat(e.get("error").asText()).as(c[0]).startsWith(c[1]);
        }
        assertThat(weights(route(1))).containsExactly(95, 5);
    }

    @Test
    void anUnknownRouteOrOneWithoutASplitIs404() {
        String body = "[{\"pool\": \"stable\", \"weight\": 90}, {\"pool\": \"canary\", \"weight\": 10}]";
        Map<String, String[]> calls = Map.of(
                "PUT /api/routes/9/split", new String[] {"PUT", "/api/routes/9/split", body, "route: no such route (got: 9"},
                "PUT /api/routes/2/split", new String[] {"PUT", "/api/routes/2/split", body, "route: routes[2] has no split"},
                "PUT /api/routes/x/split", new String[] {"PUT", "/api/routes/x/split", body, "route: no such route (got: x)"},
                "POST /api/routes/9/promote", new String[] {"POST", "/api/routes/9/promote", null, "route: no such route"},
                "POST /api/routes/0/promote", new String[] {"POST", "/api/routes/0/promote", null, "route: routes[0] has no split"},
                "POST /api/routes/-1/rollback", new String[] {"POST", "/api/routes/-1/rollback", null, "route: no such route"},
                "POST /api/routes/2/rollback", new String[] {"POST", "/api/routes/2/rollback", null, "route: routes[2] has no split"});
        calls.forEach((what, c) -> {
            RunningFulcrum.Answer a = f.call(c[0], c[1], c[2]);
            assertThat(a.status()).as(what + " -> " + a.body()).isEqualTo(404);
            assertThat(json(a.body()).get("error").asText()).as(what).startsWith(c[3]);
        });
        assertThat(f.call("GET", "/api/routes/1/split", null).status()).isEqualTo(405);
    }

    @Test
    void theSplitCallsNeedTheTokenLikeEveryApiCall() {
        try (RunningFulcrum guarded = RunningFulcrum.wholeApp(CONFIG.formatted(backends.stream()
                .map(RecordingBackend::url).toArray()).replace("\"admin\": {\"host\": \"127.0.0.1\", \"port\": 0}",
                        "\"admin\": {\"host\": \"127.0.0.1\", \"port\": 0, \"token\": \"s3cret-token\"}"))
                .token("s3cret-token").start()) {
            String body = "[{\"pool\": \"stable\", \"weight\": 90}, {\"pool\": \"canary\", \"weight\": 10}]";
            assertThat(guarded.call("PUT", "/api/routes/1/split", body, null).status()).isEqualTo(401);
            assertThat(guarded.call("POST", "/api/routes/1/promote", null, "wrong").status()).isEqualTo(401);
            assertThat(guarded.call("PUT", "/api/routes/1/split", body).status()).isEqualTo(200);
        }
    }

    @Test
    void theRemoteClientSetsPromotesAndRollsBackAndHearsTheRoutesEvents() {
        List<EngineEvent> heard = new CopyOnWriteArrayList<>();
        try (HttpEngineClient c = new HttpEngineClient(URI.create(f.adminUrl()), null)) {
            c.subscribe(heard::add);
            c.setSplit(1, List.of(new Split.Arm("stable", 80), new Split.Arm("canary", 20)));
            EngineState.RouteInfo r = c.state().routes().stream().filter(x -> x.index() == 1).findFirst().orElseThrow();
            assertThat(r.split()).extracting(EngineState.ArmInfo::weight).containsExactly(80, 20);
            assertThat(r.split()).extracting(EngineState.ArmInfo::share).containsExactly(0.8, 0.2);
            c.promote(1);
            assertThat(f.engine().router().route(1).split().describe()).isEqualTo("stable=0 canary=100");
            c.rollback(1);
            assertThat(f.engine().router().route(1).split().describe()).isEqualTo("stable=100 canary=0");
            assertThatThrownBy(() -> c.setSplit(1, List.of(new Split.Arm("stable", 1), new Split.Arm("canary", 1001))))
                    .isInstanceOfSatisfying(EngineException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).isEqualTo("split[1].weight: must be between 0 and 1000 (got: 1001)");
                    });
            assertThatThrownBy(() -> c.promote(2)).isInstanceOfSatisfying(EngineException.class,
                    e -> assertThat(e.status()).isEqualTo(404));
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.stream()
                    .filter(e -> e.type().equals("split")).count() == 3);
            assertThat(heard.stream().filter(e -> e.type().equals("split")))
                    .extracting(EngineEvent::route, EngineEvent::to)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(1, "stable=80 canary=20"),
                            org.assertj.core.groups.Tuple.tuple(1, "stable=0 canary=100"),
                            org.assertj.core.groups.Tuple.tuple(1, "stable=100 canary=0"));
        }
    }

    @Test
    void anEventsRouteIsReadBackOnlyWhenItHasOne() {
        EngineEvent split = HttpEngineClient.parseEvent("split", EventStream.frame(new EngineEvent("split", null, null,
                "stable=95 canary=5", "stable=90 canary=10", 5L, 3)).lines()
                .filter(l -> l.startsWith("data: ")).findFirst().orElseThrow().substring(6));
        assertThat(split).isEqualTo(new EngineEvent("split", null, null, "stable=95 canary=5", "stable=90 canary=10",
                5L, 3));
        String weight = EventStream.frame(new EngineEvent("weight", "default", "a", "1", "2", 6L));
        assertThat(weight).doesNotContain("\"route\"");
        assertThat(HttpEngineClient.parseEvent("weight", "{\"type\":\"weight\",\"pool\":\"default\",\"backend\":\"a\","
                + "\"from\":\"1\",\"to\":\"2\",\"at\":6}").route()).isNull();
    }

    @Test
    void theInProcessClientDoesWhatTheApiDoes() {
        InProcessEngineClient c = new InProcessEngineClient(f.app());
        try {
            c.setSplit(1, List.of(new Split.Arm("stable", 70), new Split.Arm("canary", 30)));
            assertThat(weights(route(1))).containsExactly(70, 30);
            c.promote(1);
            assertThat(weights(route(1))).containsExactly(0, 100);
            c.rollback(1);
            assertThat(weights(route(1))).containsExactly(100, 0);
            assertThatThrownBy(() -> c.setSplit(9, List.of())).isInstanceOfSatisfying(EngineException.class,
                    e -> assertThat(e.status()).isEqualTo(404));
        } finally {
            c.close();
        }
    }

    // ---------------------------------------------------------------- the guard, and /metrics

    /**
     * The canary answers 500 to every request and the baseline none: once the engine's tick has rolled the figures
     * up and the breach has held for the guard's forMs, the guard rolls the canary back by itself. State, event and
     * metrics all say so.
     */
    @Test
    void aGuardsRollbackIsShownInTheStateAnEventAndTheMetrics() throws Exception {
        try (SseTap tap = SseTap.open(f.adminUrl(), null)) {
            Router.Route.Arms arms = f.engine().router().route(1).arms();
            for (int i = 0; i < 20; i++) {
                arms.stats()[0].record(200, 2_000_000);
                arms.stats()[1].record(500, 2_000_000);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> route(1).get("guard").get("state").asText()
                    .equals("rolled-back"));
            JsonNode r = route(1);
            assertThat(weights(r)).containsExactly(95, 0);
            JsonNode guard = r.get("guard");
            assertThat(guard.get("reason").asText()).startsWith("canary error rate 1.000 above stable's 0.000");
            assertThat(guard.get("since").asLong()).isPositive();
            JsonNode canary = r.get("split").get(1);
            assertThat(canary.get("requests").asLong()).isEqualTo(20);
            assertThat(canary.get("errors").asLong()).isEqualTo(20);
            assertThat(canary.get("errorRate").asDouble()).isEqualTo(1.0);
            assertThat(canary.get("measuredShare").asDouble()).isEqualTo(0.5);

            await().atMost(Duration.ofSeconds(10)).until(() -> tap.events().stream()
                    .anyMatch(e -> e.get("type").asText().equals("guard")));
            JsonNode e = tap.events().stream().filter(x -> x.get("type").asText().equals("guard")).findFirst()
                    .orElseThrow();
            assertThat(e.get("route").asInt()).isEqualTo(1);
            assertThat(e.get("pool").asText()).isEqualTo("canary");
            assertThat(e.get("from").asText()).isEqualTo("stable=95 canary=5");
            assertThat(e.get("to").asText()).contains("errorRateAbove 0.05");

            Map<String, PrometheusText.Family> m = PrometheusText.parse(f.get("/metrics").body());
            assertThat(m.get("fulcrum_guard_rollbacks_total").value("fulcrum_guard_rollbacks_total",
                    Map.of("route", "1"))).isEqualTo(1.0);
            assertThat(m.get("fulcrum_split_weight").value("fulcrum_split_weight",
                    Map.of("route", "1", "arm", "canary"))).isEqualTo(0.0);
            assertThat(m.get("fulcrum_route_requests_total").value("fulcrum_route_requests_total",
                    Map.of("route", "1", "arm", "canary", "class", "none"))).isEqualTo(20.0);
        }
    }

    @Test
    void theMetricsHaveEachRoutesAndMirrorPoolsSeries() {
        Map<String, PrometheusText.Family> m = PrometheusText.parse(f.get("/metrics").body());
        assertThat(m.get("fulcrum_split_weight").type()).isEqualTo("gauge");
        assertThat(m.get("fulcrum_split_weight").value("fulcrum_split_weight", Map.of("route", "1", "arm", "stable")))
                .isEqualTo(95.0);
        assertThat(m.get("fulcrum_route_requests_total").type()).isEqualTo("counter");
        assertThat(m.get("fulcrum_route_requests_total").value("fulcrum_route_requests_total",
                Map.of("route", "1", "arm", "stable", "class", "none"))).isEqualTo(0.0);
        assertThat(m.get("fulcrum_route_shed_total").value("fulcrum_route_shed_total",
                Map.of("route", "0", "class", "vip"))).isEqualTo(0.0);
        assertThat(m.get("fulcrum_guard_rollbacks_total").value("fulcrum_guard_rollbacks_total",
                Map.of("route", "1"))).isEqualTo(0.0);
        for (String outcome : List.of("2xx", "3xx", "4xx", "5xx", "failed")) {
            assertThat(m.get("fulcrum_mirror_requests_total").value("fulcrum_mirror_requests_total",
                    Map.of("pool", "shadow", "outcome", outcome))).as(outcome).isEqualTo(0.0);
        }

        Router.Route split = f.engine().router().route(1);
        split.mirror().answered(204);
        split.mirror().answered(502);
        split.mirror().answered(0);
        split.mirror().tooLarge();
        split.mirror().dropped();
        split.mirror().dropped();
        f.engine().router().route(0).ceiling().shed();
        assertThat(f.call("PUT", "/api/routes/1/split", "[{\"pool\": \"stable\", \"weight\": 90},"
                + " {\"pool\": \"canary\", \"weight\": 10}]").status()).isEqualTo(200);

        m = PrometheusText.parse(f.get("/metrics").body());
        PrometheusText.Family mirrored = m.get("fulcrum_mirror_requests_total");
        assertThat(mirrored.value("fulcrum_mirror_requests_total", Map.of("pool", "shadow", "outcome", "2xx")))
                .isEqualTo(1.0);
        assertThat(mirrored.value("fulcrum_mirror_requests_total", Map.of("pool", "shadow", "outcome", "5xx")))
                .isEqualTo(1.0);
        assertThat(mirrored.value("fulcrum_mirror_requests_total", Map.of("pool", "shadow", "outcome", "failed")))
                .isEqualTo(1.0);
        PrometheusText.Family skipped = m.get("fulcrum_mirror_skipped_total");
        assertThat(skipped.value("fulcrum_mirror_skipped_total", Map.of("pool", "shadow", "reason", "too_large")))
                .isEqualTo(1.0);
        assertThat(skipped.value("fulcrum_mirror_skipped_total", Map.of("pool", "shadow", "reason", "dropped")))
                .isEqualTo(2.0);
        assertThat(m.get("fulcrum_route_shed_total").value("fulcrum_route_shed_total",
                Map.of("route", "0", "class", "vip"))).isEqualTo(1.0);
        assertThat(m.get("fulcrum_split_weight").value("fulcrum_split_weight", Map.of("route", "1", "arm", "canary")))
                .isEqualTo(10.0);
        // the plain route and the header route split nothing
        assertThat(m.get("fulcrum_split_weight").samples()).extracting(s -> s.labels().get("route"))
                .containsOnly("1");
    }

    /** docs/REFERENCE.md §4 names each call and every series a route or a mirror pool has. */
    @Test
    void theReferenceNamesEachCallAndEachSeries() throws Exception {
        String reference = java.nio.file.Files.readString(java.nio.file.Path.of("docs/REFERENCE.md"));
        String admin = reference.substring(reference.indexOf("## 4. Admin API"), reference.indexOf("## 5."));
        assertThat(admin).contains("`PUT /api/routes/{index}/split`", "`POST /api/routes/{index}/promote`",
                "`POST /api/routes/{index}/rollback`", "`split` (", "`guard` (", "\"measuredShare\"");
        Map<String, PrometheusText.Family> m = PrometheusText.parse(f.get("/metrics").body());
        List<String> routeFamilies = m.keySet().stream().filter(n -> n.matches("fulcrum_(route|mirror|split|guard)_.*"))
                .toList();
        assertThat(routeFamilies).hasSize(6);
        for (String family : routeFamilies) {
            assertThat(admin).as(family).contains("`" + family + "{");
        }
    }

    @Test
    void aReloadThatDropsARouteDropsItsSeries() {
        assertThat(f.get("/metrics").body()).contains("fulcrum_split_weight{");
        f.engine().setRouter(new Router(List.of(new Router.Route("/plain", "stable", false))));
        String text = f.get("/metrics").body();
        assertThat(text).doesNotContain("fulcrum_split_weight{").doesNotContain("fulcrum_mirror_requests_total{")
                .doesNotContain("fulcrum_guard_rollbacks_total{").doesNotContain("fulcrum_route_shed_total{");
        assertThat(json(f.get("/api/state").body()).get("pools").get("shadow").has("mirror")).isFalse();
    }

    /** Each arm's share of the last minute's requests, as the split panel compares them. */
    @Test
    void theMeasuredShareIsEachArmsPartOfTheRoutesRequests() {
        Router.Route.Arms arms = f.engine().router().route(1).arms();
        ArmStats stable = arms.stats()[0];
        ArmStats canary = arms.stats()[1];
        for (int i = 0; i < 30; i++) {
            stable.record(200, 1_000_000);
        }
        for (int i = 0; i < 10; i++) {
            canary.record(i < 2 ? 503 : 200, 1_000_000);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> route(1).get("split").get(1).get("requests").asLong() == 10);
        JsonNode r = route(1);
        assertThat(r.get("split").get(0).get("measuredShare").asDouble()).isEqualTo(0.75);
        assertThat(r.get("split").get(1).get("measuredShare").asDouble()).isEqualTo(0.25);
        assertThat(r.get("split").get(1).get("errors").asLong()).isEqualTo(2);
        assertThat(r.get("split").get(1).get("errorRate").asDouble()).isEqualTo(0.2);
        assertThat(r.get("split").get(1).get("p99Ms").asDouble()).isPositive();
    }
}
