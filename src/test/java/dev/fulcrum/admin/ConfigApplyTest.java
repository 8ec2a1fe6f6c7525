package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.fulcrum.testkit.RunningFulcrum;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PUT /api/config while a backend still has a request in flight (a drain in progress). */
class ConfigApplyTest {
    private HttpServer slow;
    private final CountDownLatch release = new CountDownLatch(1);
    private RunningFulcrum f;

    @BeforeEach
    void startSlowBackend() throws Exception {
        slow = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/", ex -> {
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] b = "slow".getBytes();
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        slow.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        slow.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (f != null) {
            f.close();
        }
        slow.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + slow.getAddress().getPort();
    }

    /** default: slow + other (weight W); pool api: x. MOVE puts slow into api instead. */
    private String config(int otherWeight, boolean moveSlowToApi) {
        String slowJson = "{\"id\": \"slow\", \"url\": \"" + url() + "\"}";
        return """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0},
                  "strategy": {"type": "round-robin"},
                  "backends": [ %s {"id": "other", "url": "http://127.0.0.1:1", "weight": %d} ],
                  "pools": {"api": {"strategy": {"type": "round-robin"},
                            "backends": [ %s {"id": "x", "url": "http://127.0.0.1:2"} ]}},
                  "routes": [ {"pathPrefix": "/api", "pool": "api"} ],
                  "healthCheck": {"enabled": false},
                  "outlierDetection": {"enabled": false},
                  "circuitBreaker": {"enabled": false},
                  "retries": {"maxRetries": 0}
                }
                """.formatted(moveSlowToApi ? "" : slowJson + ",", otherWeight, moveSlowToApi ? slowJson + "," : "");
    }

    private JsonNode backend(String id) {
        for (JsonNode b : AdminApiTest.json(f.get("/api/state").body()).get("backends")) {
            if (b.get("id").asText().equals(id)) {
                return b;
            }
        }
        return null;
    }

    /** Parks one request on the slow backend and waits until it is in flight there. */
    private CompletableFuture<HttpResponse<String>> parkRequestOnSlow() {
        // weight 0 on "other" so that the default pool's request goes to slow
        assertThat(f.call("PUT", "/api/backends/other/weight", "{\"weight\":0}").status()).isEqualTo(200);
        CompletableFuture<HttpResponse<String>> inFlight = HttpClient.newHttpClient().sendAsync(
                HttpRequest.newBuilder(URI.create(f.url() + "/work")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10)).until(() -> backend("slow").get("activeRequests").asInt() == 1);
        return inFlight;
    }

    /**
     * Waits until the proxy has counted the parked request in {@code /metrics}, which it does after the request's
     * lease went back (and with it whatever that queues on the engine's control thread, a drain's completion), then
     * runs one engine tick: whatever the finished request lets the engine do is done.
     */
    private void requestDoneAndTicked() {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            PrometheusText.Family requests = PrometheusText.parse(f.get("/metrics").body())
                    .get("fulcrum_requests_total");
            return requests != null && requests.value("fulcrum_requests_total",
                    java.util.Map.of("backend", "slow", "code", "200")) != null;
        });
        f.engine().tick();
    }

    @Test
    void aRefusedConfigThatMovesABusyBackendToAnotherPoolChangesNothing() throws Exception {
        f = RunningFulcrum.wholeApp(config(1, false)).start();
        CompletableFuture<HttpResponse<String>> inFlight = parkRequestOnSlow();

        // a whole new config: slow moves from default to api, and other's weight becomes 7
        RunningFulcrum.Answer a = f.call("PUT", "/api/config", config(7, true));

        // docs/REFERENCE.md §4: 200 applied, or 400 with {"errors":[...]} and nothing changed
        String otherWeight = backend("other").get("weight").asText();
        String slowState = backend("slow").get("state").asText();
        release.countDown();
        assertThat(inFlight.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        requestDoneAndTicked();
        JsonNode slowAfter = backend("slow");
        String observed = "PUT answered " + a.status() + " " + a.body() + "; then other.weight=" + otherWeight
                + ", slow.state=" + slowState + "; once its request finished slow is "
                + (slowAfter == null ? "GONE" : "in pool " + slowAfter.get("pool").asText());
        // moved in one step: the request in flight finishes on the old entry, the id lives on in pool api
        assertThat(a.status()).as(observed).isEqualTo(200);
        assertThat(otherWeight).as(observed).isEqualTo("7");
        assertThat(slowAfter).as(observed).isNotNull();
        assertThat(slowAfter.get("pool").asText()).as(observed).isEqualTo("api");
        assertThat(slowAfter.get("state").asText()).as(observed).isEqualTo("UP");
    }

    @Test
    void aConfigWhoseDnsServerDoesNotResolveIsAppliedAndItsSourceFailsOnItsOwn() {
        // the server's host is looked up by the source when it refreshes (and fails there, keeping its last good
        // set), not while the config is applied, which would answer 500 with half of it applied
        String next = """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0},
                  "strategy": {"type": "round-robin"},
                  "backends": [ {"id": "a", "url": "http://127.0.0.1:9001", "weight": 9} ],
                  "discovery": [ {"type": "dns", "name": "api.internal", "port": 3000, "server": "no-such-host.invalid:53"} ],
                  "healthCheck": {"enabled": false}
                }
                """;
        f = RunningFulcrum.wholeApp(next.replace("\"weight\": 9}", "\"weight\": 1}, {\"id\": \"b\", \"url\": \"http://127.0.0.1:9002\"}")
                .replace("\"discovery\": [ {\"type\": \"dns\", \"name\": \"api.internal\", \"port\": 3000, \"server\": \"no-such-host.invalid:53\"} ],", "")).start();
        RunningFulcrum.Answer a = f.call("PUT", "/api/config", next);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        assertThat(backend("a").get("weight").asInt()).isEqualTo(9);
        assertThat(backend("b")).isNull();
    }

    @Test
    void aConfigThatKeepsABackendBeingRemovedKeepsIt() throws Exception {
        f = RunningFulcrum.wholeApp(config(1, false)).start();
        CompletableFuture<HttpResponse<String>> inFlight = parkRequestOnSlow();
        assertThat(f.call("DELETE", "/api/backends/slow", null).status()).isEqualTo(202);

        // the operator changes their mind: a whole config that has slow in it
        RunningFulcrum.Answer a = f.call("PUT", "/api/config", config(1, false));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        assertThat(AdminApiTest.json(a.body()).toString()).contains("\"slow\"");

        release.countDown();
        assertThat(inFlight.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        // the in-flight request is done; the applied config still lists slow, so it must still be there
        requestDoneAndTicked();
        assertThat(backend("slow")).as("slow is in the applied config (200) but was removed from the pool").isNotNull();
        assertThat(AdminApiTest.json(f.get("/api/config").body()).toString()).contains("\"slow\"");
    }

    @Test
    void proxySettingsAreFixedAtStartSoAConfigChangingThemIsRefusedAndNothingChanges() {
        // the proxy's listeners, limits, timeouts, retries and sticky key are set when it starts; a PUT answering 200
        // "applied" for them would leave the old ones on (no Set-Cookie after enabling sticky sessions, no 431)
        f = RunningFulcrum.demoApp();
        String next = RunningFulcrum.demoJson(null, RunningFulcrum.QUIET
                + ", \"stickySession\": {\"enabled\": true, \"secret\": \"0123456789abcdef-secret\"}")
                .replace("\"proxy\": {\"host\": \"127.0.0.1\", \"port\": 0}",
                        "\"proxy\": {\"host\": \"127.0.0.1\", \"port\": 0, \"maxHeaderBytes\": 1024}")
                .replace("\"maxRetries\": 0", "\"maxRetries\": 2")
                .replace("\"weight\": 2", "\"weight\": 7");
        assertThat(next).contains("maxHeaderBytes").contains("\"maxRetries\": 2");
        RunningFulcrum.Answer a = f.call("PUT", "/api/config", next);
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(AdminApiTest.json(a.body()).get("errors").toString())
                .contains("proxy.maxHeaderBytes: takes effect at a restart; the running process keeps 8192 (got: 1024)")
                .contains("retries.maxRetries: takes effect at a restart; the running process keeps 0 (got: 2)")
                .contains("stickySession.enabled: takes effect at a restart")
                .contains("stickySession.secret: takes effect at a restart; the running process keeps its own (got: another secret)")
                .doesNotContain("0123456789abcdef-secret");
        // nothing changed: no weight applied, no cookie, the config as it was
        assertThat(AdminApiTest.json(f.get("/api/state").body()).toString()).doesNotContain("\"weight\":7");
        assertThat(f.proxied("/hello").header("Set-Cookie")).isNull();
        assertThat(AdminApiTest.json(f.get("/api/config").body()).get("proxy").get("maxHeaderBytes").asInt()).isEqualTo(8192);
        // the same config with the running proxy settings goes through
        RunningFulcrum.Answer ok = f.call("PUT", "/api/config", RunningFulcrum.demoJson(null, RunningFulcrum.QUIET));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
    }

    @Test
    void theRunningConfigPutBackIsAppliedWithNothingToRestart() {
        // GET /api/config round-trips: what it says of the proxy is what the proxy runs with, so putting it back
        // (as the window's "save" and scripts do) is never refused as a change that needs a restart
        f = RunningFulcrum.demoApp(null, RunningFulcrum.QUIET
                + ", \"stickySession\": {\"enabled\": true, \"secret\": \"0123456789abcdef-secret\"}"
                + ", \"timeouts\": {\"readMs\": 12000}");
        String running = f.get("/api/config").body();
        RunningFulcrum.Answer a = f.call("PUT", "/api/config", running);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
    }
}
