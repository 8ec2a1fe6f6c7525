package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics} scraped over HTTP and read by a strict Prometheus text-format parser. */
class MetricsEndpointTest {
    private RunningFulcrum f;

    @BeforeEach
    void start() {
        f = RunningFulcrum.demoApp();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    private Map<String, PrometheusText.Family> scrape() {
        RunningFulcrum.Answer a = f.get("/metrics");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.header("Content-Type")).startsWith("text/plain; version=0.0.4");
        return PrometheusText.parse(a.body());
    }

    @Test
    void everyContractSeriesIsExposedWithItsLabels() {
        f.call("PUT", "/api/demo/demo-a", "{\"errorRate\":1}");
        int ok = 0;
        int failed = 0;
        for (int i = 0; i < 6; i++) {
            RunningFulcrum.Answer a = f.proxied("/work");
            if (a.status() == 200) {
                ok++;
            } else {
                failed++;
            }
        }
        int okCount = ok;
        int failedCount = failed;
        assertThat(failed).isEqualTo(3);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Map<String, PrometheusText.Family> m = scrape();
            PrometheusText.Family req = m.get("fulcrum_requests_total");
            assertThat(req.type()).isEqualTo("counter");
            assertThat(req.value("fulcrum_requests_total", Map.of("backend", "demo-a", "code", "500")))
                    .isEqualTo((double) failedCount);
            assertThat(req.value("fulcrum_requests_total", Map.of("backend", "demo-b", "code", "200")))
                    .isEqualTo((double) okCount);
            // attempts as /api/state counts them, for backends whose failures were retried elsewhere too
            assertThat(m.get("fulcrum_backend_attempts_total").value("fulcrum_backend_attempts_total",
                    Map.of("backend", "demo-a"))).isEqualTo((double) failedCount);
            assertThat(m.get("fulcrum_backend_attempt_failures_total").value("fulcrum_backend_attempt_failures_total",
                    Map.of("backend", "demo-a"))).isEqualTo((double) failedCount);
            PrometheusText.Family dur = m.get("fulcrum_request_duration_seconds");
            assertThat(dur.type()).isEqualTo("histogram");
            assertThat(dur.value("fulcrum_request_duration_seconds_count", Map.of())).isEqualTo(6.0);
            assertThat(dur.value("fulcrum_request_duration_seconds_sum", Map.of())).isPositive();
            assertThat(dur.value("fulcrum_request_duration_seconds_bucket", Map.of("le", "+Inf"))).isEqualTo(6.0);
        });
        Map<String, PrometheusText.Family> m = scrape();
        assertThat(m.get("fulcrum_active_requests").type()).isEqualTo("gauge");
        assertThat(m.get("fulcrum_active_requests").value("fulcrum_active_requests", Map.of("backend", "demo-a"))).isEqualTo(0.0);
        assertThat(m.get("fulcrum_backend_up").value("fulcrum_backend_up", Map.of("backend", "demo-b"))).isEqualTo(1.0);
        PrometheusText.Family breaker = m.get("fulcrum_breaker_state");
        assertThat(breaker.value("fulcrum_breaker_state", Map.of("backend", "demo-a", "state", "CLOSED"))).isEqualTo(1.0);
        assertThat(breaker.value("fulcrum_breaker_state", Map.of("backend", "demo-a", "state", "OPEN"))).isEqualTo(0.0);
        assertThat(breaker.value("fulcrum_breaker_state", Map.of("backend", "demo-a", "state", "HALF_OPEN"))).isEqualTo(0.0);
        // six sequential requests over kept-alive connections: at least one connection per backend, far fewer than six
        // (after a collection: the count must not depend on an object only weakly held)
        System.gc();
        m = scrape();
        PrometheusText.Family opened = m.get("fulcrum_backend_connections_opened_total");
        assertThat(opened.type()).isEqualTo("counter");
        assertThat(opened.value("fulcrum_backend_connections_opened_total", Map.of())).isBetween(2.0, 4.0);
    }

    @Test
    void gaugesFollowTheBackendsStateAndMembership() {
        assertThat(scrape().get("fulcrum_backend_up").value("fulcrum_backend_up", Map.of("backend", "demo-a"))).isEqualTo(1.0);
        f.call("POST", "/api/backends/demo-a/drain", null);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                scrape().get("fulcrum_backend_up").value("fulcrum_backend_up", Map.of("backend", "demo-a")) == 0.0);

        f.call("POST", "/api/backends", "{\"id\":\"late\",\"url\":\"http://127.0.0.1:1\"}");
        assertThat(scrape().get("fulcrum_backend_up").value("fulcrum_backend_up", Map.of("backend", "late"))).isEqualTo(1.0);
        f.call("DELETE", "/api/backends/late", null);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                scrape().get("fulcrum_backend_up").value("fulcrum_backend_up", Map.of("backend", "late")) == null);
        assertThat(scrape().get("fulcrum_breaker_state").samples()).noneMatch(s -> "late".equals(s.labels().get("backend")));
    }
}
