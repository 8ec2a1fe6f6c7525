package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RunningFulcrum;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Places where the running app must do what docs/REFERENCE.md says, each checked over real HTTP. */
class ContractConformanceTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static JsonNode json(String s) {
        return AdminApiTest.json(s);
    }

    /**
     * docs/REFERENCE.md §4: PUT /api/config answers 200 applied, or 400 with {"errors":[...]} and nothing changed. A demo backend
     * latencyMs above 60000 (which validation lets through) makes it answer 500 after the strategy was already
     * switched, while GET /api/config still reports the old strategy.
     */
    @Test
    void putConfigWithAnOutOfRangeDemoLatencyIs400AndChangesNothing() {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            JsonNode cfg = json(f.get("/api/config").body());
            ((com.fasterxml.jackson.databind.node.ObjectNode) cfg).set("strategy", json("{\"type\":\"random\"}"));
            ((com.fasterxml.jackson.databind.node.ObjectNode) cfg.get("demoBackends").get(0)).put("latencyMs", 70000);

            RunningFulcrum.Answer a = f.call("PUT", "/api/config", cfg.toString());

            String strategyNow = json(f.get("/api/state").body()).get("strategy").get("type").asText();
            assertThat(strategyNow).as("nothing may change when the config is refused").isEqualTo("round-robin");
            assertThat(a.status()).as(a.body()).isEqualTo(400);
            assertThat(json(a.body()).get("errors").toString()).contains("demoBackends[0].latencyMs");
        }
    }

    /**
     * docs/REFERENCE.md §3: X-Forwarded-For is appended. A client (or an upstream proxy) that sends the header twice loses
     * the second one: "9.9.9.9, 8.8.8.8" arrives as "9.9.9.9, 127.0.0.1".
     */
    @Test
    void everyIncomingXForwardedForLineIsKeptWhenAppending() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(f.url() + "/echo"))
                    .header("X-Forwarded-For", "9.9.9.9").header("X-Forwarded-For", "8.8.8.8")
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            String xff = json(r.body()).get("headers").get("X-Forwarded-For").asText();
            assertThat(xff).isEqualTo("9.9.9.9, 8.8.8.8, 127.0.0.1");
        }
    }

    /**
     * docs/REFERENCE.md §3: "Sticky sessions: the response sets the cookie; later requests with it go to the same backend
     * while it is UP." With routes to two pools, every response sets the same cookie name on Path=/, so a client
     * that alternates between / and /api is re-balanced on every /api request.
     */
    @Test
    void aStickyClientKeepsItsApiBackendWhileAlsoUsingTheDefaultPool() throws Exception {
        String cfg = """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0},
                  "strategy": {"type": "round-robin"},
                  "demoBackends": [ {"id": "web", "port": 0, "latencyMs": 0} ],
                  "pools": {"api": {"strategy": {"type": "round-robin"}, "demoBackends": [
                      {"id": "api-1", "port": 0, "latencyMs": 0}, {"id": "api-2", "port": 0, "latencyMs": 0} ]}},
                  "routes": [ {"pathPrefix": "/api", "pool": "api"} ],
                  "stickySession": {"enabled": true},
                  "healthCheck": {"enabled": false},
                  "retries": {"maxRetries": 0}
                }
                """;
        try (RunningFulcrum app = RunningFulcrum.wholeApp(cfg).start()) {
            String proxy = app.url();
            java.net.CookieManager cookies = new java.net.CookieManager();
            HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).build();
            List<String> apiBackends = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> api = browser.send(HttpRequest.newBuilder(URI.create(proxy + "/api/x")).build(),
                        HttpResponse.BodyHandlers.ofString());
                apiBackends.add(api.headers().firstValue("X-Fulcrum-Backend").orElse("?"));
                browser.send(HttpRequest.newBuilder(URI.create(proxy + "/page")).build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            assertThat(apiBackends).as("every /api request should stick to the first api backend")
                    .containsOnly(apiBackends.get(0));
        }
    }

    /**
     * docs/REFERENCE.md §4: bad input is 400. POST /api/ring/preview {"add":[...]} takes ids POST /api/backends refuses
     * ("bad id") and the same id twice, and answers 200 with a share for them.
     */
    @Test
    void ringPreviewRefusesAnInvalidOrRepeatedIdToAdd() {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            assertThat(f.call("PUT", "/api/strategy", "{\"type\":\"consistent-hash\"}").status()).isEqualTo(200);

            RunningFulcrum.Answer badId = f.call("POST", "/api/ring/preview", "{\"add\":[{\"id\":\"bad id\",\"weight\":1}]}");
            RunningFulcrum.Answer twice = f.call("POST", "/api/ring/preview",
                    "{\"add\":[{\"id\":\"n1\",\"weight\":1},{\"id\":\"n1\",\"weight\":1}]}");

            assertThat(badId.status()).as(badId.body()).isEqualTo(400);
            assertThat(twice.status()).as(twice.body()).isIn(400, 409);
        }
    }

    /** The error path names the field: "weights.demo-a", as every other error does, not a bare "demo-a". */
    @Test
    void ringPreviewWeightErrorNamesItsJsonPath() {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            assertThat(f.call("PUT", "/api/strategy", "{\"type\":\"consistent-hash\"}").status()).isEqualTo(200);
            RunningFulcrum.Answer a = f.call("POST", "/api/ring/preview", "{\"weights\":{\"demo-a\":-1}}");
            assertThat(a.status()).isEqualTo(400);
            assertThat(json(a.body()).get("error").asText()).startsWith("weights.demo-a: ");
        }
    }

    /** RFC 9110 15.5.6: a 405 response MUST carry Allow. */
    @Test
    void methodNotAllowedSaysWhichMethodsAre() {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            RunningFulcrum.Answer a = f.call("GET", "/api/backends/demo-a/weight", null);
            assertThat(a.status()).isEqualTo(405);
            assertThat(a.header("Allow")).isNotNull().contains("PUT");
        }
    }

    /**
     * docs/REFERENCE.md §4 / README: PUT /api/config is "200 applied" or 400 with nothing changed. Moving an existing demo
     * backend to another port answers 200, but the demo keeps its old port and GET /api/config shows the old one:
     * the change is silently dropped (neither applied nor refused as "takes a restart").
     */
    @Test
    void putConfigMovingADemoBackendToAnotherPortIsAppliedOrRefused() throws Exception {
        int free = FreePort.loopback();
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            JsonNode cfg = json(f.get("/api/config").body());
            int before = cfg.get("demoBackends").get(0).get("port").asInt();
            ((com.fasterxml.jackson.databind.node.ObjectNode) cfg.get("demoBackends").get(0)).put("port", free);

            RunningFulcrum.Answer a = f.call("PUT", "/api/config", cfg.toString());

            int after = json(f.get("/api/config").body()).get("demoBackends").get(0).get("port").asInt();
            if (a.status() == 200) {
                assertThat(after).as("200 means applied: demo-a should now listen on %d (was %d)", free, before)
                        .isEqualTo(free);
            } else {
                assertThat(a.status()).isEqualTo(400);
                assertThat(after).isEqualTo(before);
            }
        }
    }

    /** A weight too large for an int is out of range, not "not an integer", as in a config file. */
    @Test
    void aHugeWholeWeightIsOutOfRange() {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            RunningFulcrum.Answer a = f.call("PUT", "/api/backends/demo-b/weight", "{\"weight\":99999999999999999999}");
            assertThat(a.status()).isEqualTo(400);
            assertThat(json(a.body()).get("error").asText()).isEqualTo("weight: is out of range (got: 99999999999999999999)");
        }
    }
}
