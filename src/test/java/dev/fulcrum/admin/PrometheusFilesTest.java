package dev.fulcrum.admin;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.admin.ExportFixturesForTest.Result;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's files in packaging/: the alert rules pass promtool's check and its unit tests, a live /metrics
 * passes promtool's lint, a real Prometheus scrapes a running Fulcrum and answers a query with its series, loads the
 * rules without an error, and evaluates every query of the Grafana dashboard; and every metric the dashboard names
 * is one Fulcrum serves.
 */
class PrometheusFilesTest {
    static final Path RULES = Path.of("packaging/prometheus/fulcrum-rules.yml");
    static final Path RULE_TESTS = Path.of("packaging/prometheus/fulcrum-rules.test.yml");
    static final Path DASHBOARD = Path.of("packaging/grafana/fulcrum.json");
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Demo backends behind a split route with a mirror and a guard, and a class ceiling: every series Fulcrum has. */
    static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0},
              "healthCheck": {"enabled": false},
              "pools": {
                "stable": {"demoBackends": [{"id": "stable-1", "port": 0}, {"id": "stable-2", "port": 0}]},
                "canary": {"demoBackends": [{"id": "canary-1", "port": 0}]},
                "shadow": {"demoBackends": [{"id": "shadow-1", "port": 0}]}
              },
              "routes": [
                {"pathPrefix": "/batch", "pool": "stable", "class": "batch", "maxInFlightPerBackend": 4},
                {"pathPrefix": "/", "split": [{"pool": "stable", "weight": 90}, {"pool": "canary", "weight": 10}],
                 "stickyBy": "none", "mirror": {"pool": "shadow", "percent": 50},
                 "guard": {"arm": "canary", "errorRateAbove": 0.5}}
              ]
            }
            """;

    @Test
    void theRulesPassPromtoolsCheckAndTheirUnitTests() {
        Path promtool = binary("promtool");
        assumeTrue(promtool != null, "promtool is not installed here (CI installs Debian's prometheus)");

        Result check = run(List.of(promtool.toString(), "check", "rules", RULES.toString()), Duration.ofSeconds(30));
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 6 rules found");

        Result tests = run(List.of(promtool.toString(), "test", "rules", RULE_TESTS.toString()), Duration.ofSeconds(60));
        assertThat(tests.exitCode()).as(tests.output()).isZero();
    }

    @Test
    void aRealPrometheusScrapesFulcrumLoadsTheRulesAndAnswersEveryDashboardQuery(@TempDir Path dir)
            throws Exception {
        Path prometheus = binary("prometheus");
        Path promtool = binary("promtool");
        assumeTrue(prometheus != null && promtool != null,
                "prometheus is not installed here (CI installs Debian's prometheus)");
        try (RunningFulcrum f = RunningFulcrum.wholeApp(CONFIG).start()) {
            for (int i = 0; i < 40; i++) {
                get(f.url() + (i % 4 == 0 ? "/batch/" + i : "/" + i));
            }
            String metrics = get(f.adminUrl() + "/metrics");

            // promtool's lint of what a scrape reads: names, types, units, help
            Process lint = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
            lint.getOutputStream().write(metrics.getBytes(StandardCharsets.UTF_8));
            lint.getOutputStream().close();
            String lintSaid = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(lint.waitFor()).as(lintSaid).isZero();
            assertThat(lintSaid).as("promtool check metrics").isBlank();

            Set<String> served = metricNames(metrics);
            assertThat(dashboardMetrics()).as("metrics the dashboard names that Fulcrum does not serve")
                    .isSubsetOf(served);

            int port = FreePort.loopback();
            URI admin = URI.create(f.adminUrl());
            Files.copy(RULES, dir.resolve("fulcrum-rules.yml"));
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global:
                      scrape_interval: 1s
                      evaluation_interval: 1s
                    rule_files: [fulcrum-rules.yml]
                    scrape_configs:
                      - job_name: fulcrum
                        static_configs:
                          - targets: ['%s:%d']
                    """.formatted(admin.getHost(), admin.getPort()));
            Process p = new ProcessBuilder(prometheus.toString(),
                    "--config.file=" + dir.resolve("prometheus.yml"),
                    "--storage.tsdb.path=" + dir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            try {
                String api = "http://127.0.0.1:" + port + "/api/v1/";
                // a series scraped from Fulcrum, read back with its labels
                JsonNode answered = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                        .ignoreExceptions()
                        .until(() -> query(api, "fulcrum_requests_total{job=\"fulcrum\",backend=\"stable-1\"}"),
                                r -> r.path("data").path("result").size() == 1);
                JsonNode sample = answered.path("data").path("result").get(0);
                assertThat(sample.path("metric").path("code").asText()).isEqualTo("200");
                assertThat(sample.path("metric").path("instance").asText())
                        .isEqualTo(admin.getHost() + ":" + admin.getPort());
                assertThat(Double.parseDouble(sample.path("value").get(1).asText())).isPositive();

                JsonNode rules = JSON.readTree(get(api + "rules"));
                List<String> unhealthy = new ArrayList<>();
                int count = 0;
                for (JsonNode group : rules.path("data").path("groups")) {
                    for (JsonNode rule : group.path("rules")) {
                        count++;
                        if (!rule.path("health").asText().equals("ok") && !rule.path("health").asText().equals("unknown")) {
                            unhealthy.add(rule.path("name").asText() + ": " + rule.path("lastError").asText());
                        }
                    }
                }
                assertThat(count).as("rules Prometheus loaded").isEqualTo(6);
                assertThat(unhealthy).isEmpty();

                List<String> refused = new ArrayList<>();
                for (String expr : dashboardExpressions()) {
                    String q = expr.replace("$__rate_interval", "1m").replace("$__range", "5m")
                            .replace("$instance", ".*");
                    JsonNode r = query(api, q);
                    if (!r.path("status").asText().equals("success")) {
                        refused.add(q + ": " + r.path("error").asText());
                    }
                }
                assertThat(refused).as("dashboard queries Prometheus refused").isEmpty();
            } finally {
                p.destroy();
                p.waitFor();
            }
        }
    }

    static JsonNode query(String api, String promql) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
                        URI.create(api + "query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    static String get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    static List<String> dashboardExpressions() throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode panel : JSON.readTree(DASHBOARD.toFile()).path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                out.add(target.path("expr").asText());
            }
        }
        assertThat(out).as("the dashboard's queries").hasSizeGreaterThan(10);
        return out;
    }

    /** Every fulcrum_ metric a dashboard query names, a histogram by its family name. */
    static Set<String> dashboardMetrics() throws IOException {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("\\bfulcrum_[a-z_]+").matcher(String.join("\n", dashboardExpressions()));
        while (m.find()) {
            out.add(m.group().replaceFirst("_bucket$", ""));
        }
        return out;
    }

    /** The metric families of a scrape, from its TYPE lines. */
    static Set<String> metricNames(String exposition) {
        Set<String> out = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                out.add(line.split(" ")[2]);
            }
        }
        return out;
    }
}
