package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The figures an operator compares the window with, as {@code GET /api/state} gives them (docs/REFERENCE.md §4): the
 * requests the proxy answered, each once whatever its attempts, and whether a backend back from an ejection has been
 * seen to work.
 */
public class OperatorFiguresApiTest {
    private static JsonNode state(RunningFulcrum f) {
        RunningFulcrum.Answer a = f.get("/api/state");
        assertThat(a.status()).isEqualTo(200);
        return AdminApiTest.json(a.body());
    }

    private static JsonNode backend(RunningFulcrum f, String id) {
        for (JsonNode b : state(f).get("backends")) {
            if (b.get("id").asText().equals(id)) {
                return b;
            }
        }
        throw new AssertionError("no backend " + id);
    }

    /**
     * Round robin over the backend {@code id} at {@code url} and demo-a, one retry, health checks and breakers off,
     * outlier detection as {@code outlier} says.
     */
    public static String retryingConfig(String id, String url, String outlier) {
        return """
                {
                  "proxy": {"host": "127.0.0.1", "port": 0},
                  "admin": {"host": "127.0.0.1", "port": 0},
                  "strategy": {"type": "round-robin"},
                  "backends": [ {"id": "%s", "url": "%s", "weight": 1} ],
                  "demoBackends": [ {"id": "demo-a", "port": 0, "weight": 1, "latencyMs": 0, "errorRate": 0.0} ],
                  "retries": {"maxRetries": 1},
                  "healthCheck": {"enabled": false},
                  "circuitBreaker": {"enabled": false},
                  "outlierDetection": %s
                }
                """.formatted(id, url, outlier);
    }

    /**
     * curl saw 670 of 670 answered 200 while the window's errors rose from 30 to 40: it counted each retried request's
     * first attempt, refused by a backend nothing listened on, as an error. The engine now says how many requests it
     * answered and how many of those answers were errors, each request once.
     */
    @Test
    void aRequestRetriedAndAnswered200CountsOnceAndNotAsAnError() throws Exception {
        String gone = "http://127.0.0.1:" + FreePort.loopback();
        try (RunningFulcrum f = RunningFulcrum.wholeApp(retryingConfig("gone", gone, "{\"enabled\": false}")).start()) {
            // when 20 GETs go through, about half of them first to the backend that refuses connections
            for (int i = 0; i < 20; i++) {
                assertThat(f.proxied("/hello").status()).isEqualTo(200);
            }

            // then the engine answered 20 requests, none of them with an error, though attempts failed on the way
            // (each counted as its exchange completes, a moment after its client has the answer)
            assertThat(state(f).get("requests")).as("requests answered, in GET /api/state").isNotNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> state(f).get("requests").get("total").asLong() == 20);
            JsonNode requests = state(f).get("requests");
            assertThat(requests.get("errors").asLong()).isZero();
            assertThat(backend(f, "gone").get("failures").asLong()).as("the attempts that failed, kept per backend")
                    .isPositive();
        }
    }

    @Test
    void answersOfFiveHundredOrMoreAreCountedAsErrors() {
        try (RunningFulcrum f = RunningFulcrum.wholeApp(RunningFulcrum.demoJson(null, RunningFulcrum.QUIET)).start()) {
            assertThat(f.call("PUT", "/api/demo/demo-a", "{\"errorRate\": 1.0}").status()).isEqualTo(200);
            assertThat(f.call("PUT", "/api/demo/demo-b", "{\"errorRate\": 1.0}").status()).isEqualTo(200);
            for (int i = 0; i < 6; i++) {
                assertThat(f.proxied("/hello").status()).isEqualTo(500);
            }
            assertThat(f.proxied("/health").status()).isEqualTo(200); // the demo backend's /health ignores errorRate

            await().atMost(Duration.ofSeconds(5)).until(() -> state(f).get("requests").get("total").asLong() == 7);
            JsonNode requests = state(f).get("requests");
            assertThat(requests.get("errors").asLong()).isEqualTo(6);
        }
    }

    /**
     * A backend ejected by passive detection, with active checks off, is back in rotation when its ejection ends (as
     * nginx's fail_timeout does), though nothing has shown it works: {@code unverified} says so until a request to it
     * succeeds.
     */
    @Test
    void aBackendBackFromAnEjectionIsUnverifiedUntilARequestToItSucceeds() throws Exception {
        try (RecordingBackend flaky = new RecordingBackend("flaky")) {
            flaky.down();
            String outlier = "{\"enabled\": true, \"consecutiveFailures\": 2, \"baseEjectionMs\": 200,"
                    + " \"maxEjectionPercent\": 50}";
            try (RunningFulcrum f = RunningFulcrum.wholeApp(retryingConfig("flaky", flaky.url(), outlier)).start()) {
                assertThat(backend(f, "flaky").path("unverified").asBoolean(true)).as("a backend never ejected").isFalse();

                // when its requests fail until it is ejected, and the ejection ends with nothing listening there
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    assertThat(f.proxied("/hello").status()).isEqualTo(200);
                    return f.backend("flaky").state() == BackendState.EJECTED;
                });
                await().atMost(Duration.ofSeconds(10)).until(() -> f.backend("flaky").state() == BackendState.UP);

                // then it is UP, in rotation, and unverified
                JsonNode back = backend(f, "flaky");
                assertThat(back.get("state").asText()).isEqualTo("UP");
                assertThat(back.get("unverified")).as("unverified, in GET /api/state").isNotNull();
                assertThat(back.get("unverified").asBoolean()).isTrue();
                assertThat(backend(f, "demo-a").get("unverified").asBoolean()).isFalse();

                // and once it listens again and answers a request, it is verified
                flaky.up();
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    assertThat(f.proxied("/hello").status()).isEqualTo(200);
                    return flaky.requests.get() > 0;
                });
                await().atMost(Duration.ofSeconds(5)).until(() -> !backend(f, "flaky").get("unverified").asBoolean());
            }
        }
    }
}
