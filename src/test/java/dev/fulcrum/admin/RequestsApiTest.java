package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/requests}, {@code /api/requests/recent} and {@code /api/requests/har} over real HTTP against a running
 * Fulcrum (docs/REFERENCE.md §5): the shape of each request, the rate cap with its {@code dropped} count, the token,
 * masked credentials, and a HAR file the HAR 1.2 schema's validator (npm's har-validator, under src/test/har) accepts.
 */
class RequestsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static RunningFulcrum f;

    @BeforeAll
    static void start() {
        f = RunningFulcrum.demoApp("t0ken", RunningFulcrum.QUIET);
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    private static void send(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(f.url() + path));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        assertThat(f.http().send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
    }

    private static JsonNode get(String path) throws Exception {
        RunningFulcrum.Answer a = f.get(path);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return JSON.readTree(a.body());
    }

    @Test
    void recentListsTheNewestFirstInTheReferencesShape() throws Exception {
        send("/recent-1");
        send("/recent-2?q=a%20b");
        await().atMost(Duration.ofSeconds(10)).until(() -> get("/api/requests/recent?limit=2").get(0).get("path")
                .asText().equals("/recent-2"));

        JsonNode two = get("/api/requests/recent?limit=2");

        assertThat(two).hasSize(2);
        assertThat(two.get(1).get("path").asText()).isEqualTo("/recent-1");
        JsonNode r = two.get(0);
        for (String field : List.of("time", "pool", "method", "path", "client", "key", "keyHash", "attempts", "backend",
                "status", "bytes", "latencyMs", "retried", "sticky", "spilled", "refused")) {
            assertThat(r.has(field)).as(field).isTrue();
        }
        assertThat(r.get("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
        assertThat(r.get("query").asText()).isEqualTo("q=a%20b");
        assertThat(r.get("status").asInt()).isEqualTo(200);
        assertThat(r.get("backend").asText()).startsWith("demo-");
        assertThat(r.get("attempts").get(0).get("outcome").asText()).isEqualTo("success");
        assertThat(r.get("attempts").get(0).get("backend").asText()).isEqualTo(r.get("backend").asText());
        assertThat(r.get("key").isNull()).as("round robin hashes nothing").isTrue();
    }

    @Test
    void everyRequestsEndpointNeedsTheTokenAndABadLimitNamesTheField() {
        for (String path : List.of("/api/requests/recent", "/api/requests/har", "/api/requests")) {
            assertThat(f.call("GET", path, null, null).status()).as(path).isEqualTo(401);
        }
        RunningFulcrum.Answer bad = f.get("/api/requests/recent?limit=0");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body()).contains("limit: must be a whole number between 1 and").contains("(got: 0)");
        assertThat(f.get("/api/requests?rate=lots").body()).contains("rate: must be a whole number").contains("lots");
    }

    @Test
    void theStreamSendsAtMostItsRateAndCountsTheRestAsDropped() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(f.adminUrl() + "/api/requests?rate=5"))
                .header("Authorization", "Bearer t0ken").build();
        HttpResponse<InputStream> stream = f.http().send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("content-type")).hasValue("text/event-stream");
        List<JsonNode> events = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                String event = null;
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ") && "request".equals(event)) {
                        events.add(JSON.readTree(line.substring(6)));
                    }
                }
            } catch (Exception closed) {
                // the test closes the stream
            }
        });
        long t0 = System.nanoTime();
        int sent = 0;
        while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2)) {
            send("/burst-" + sent++);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        int burst = sent;
        // what went unsent is told with the next event sent: a last request, once the rate allows one again
        int[] finals = {0};
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            send("/final");
            finals[0]++;
            return events.stream().anyMatch(e -> e.get("path").asText().equals("/final"));
        });
        stream.body().close();

        List<JsonNode> during = events.stream().filter(e -> e.get("path").asText().startsWith("/burst-")).toList();
        assertThat(during.size()).as("events at rate 5 over %.1f s", seconds).isBetween(2, (int) (5 * (seconds + 1)));
        JsonNode last = events.stream().filter(e -> e.get("path").asText().equals("/final")).findFirst().orElseThrow();
        long accounted = events.stream().takeWhile(e -> e != last).mapToLong(e -> 1 + e.get("dropped").asLong()).sum()
                + 1 + last.get("dropped").asLong();
        assertThat(accounted).as("each request sent or counted as dropped, none twice")
                .isBetween((long) burst + 1, (long) burst + finals[0]);
        assertThat(burst).as("requests sent in the burst").isGreaterThan(during.size() * 4);
        reader.cancel(true);
    }

    @Test
    void aHarExportHasTheRequestsWithCredentialsMaskedAndPassesTheHar12Schema() throws Exception {
        send("/har-me?x=1&y=two", "Authorization", "Bearer sekrit", "Cookie", "sid=abc123; theme=dark");
        await().atMost(Duration.ofSeconds(10)).until(() -> get("/api/requests/recent?limit=1").get(0).get("path")
                .asText().equals("/har-me"));

        RunningFulcrum.Answer a = f.get("/api/requests/har?limit=3");

        assertThat(a.status()).isEqualTo(200);
        assertThat(a.header("content-disposition")).contains("fulcrum.har");
        assertThat(a.body()).doesNotContain("sekrit").doesNotContain("abc123").doesNotContain("dark");
        JsonNode log = JSON.readTree(a.body()).get("log");
        assertThat(log.get("version").asText()).isEqualTo("1.2");
        assertThat(log.get("creator").get("name").asText()).isEqualTo("Fulcrum");
        JsonNode last = log.get("entries").get(log.get("entries").size() - 1);
        assertThat(last.get("request").get("url").asText()).isEqualTo("http://" + f.url().substring(7)
                + "/har-me?x=1&y=two");
        assertThat(last.get("request").get("queryString").toString()).contains("\"name\":\"y\",\"value\":\"two\"");
        assertThat(last.get("request").get("headers").toString())
                .contains("{\"name\":\"Authorization\",\"value\":\"Bearer ***\"}")
                .contains("{\"name\":\"Cookie\",\"value\":\"sid=***; theme=***\"}");
        assertThat(last.get("response").get("status").asInt()).isEqualTo(200);
        assertThat(last.get("_backend").asText()).startsWith("demo-");
        assertThat(validate(a.body())).isEqualTo("valid");
    }

    @Test
    void theValidatorRefusesWhatIsNotHar() throws Exception {
        assertThat(validate("{\"log\":{\"version\":\"1.2\",\"entries\":[{}]}}")).contains("creator")
                .contains("startedDateTime");
    }

    /** The HAR 1.2 schema's verdict on {@code har}: {@code valid}, or its errors. */
    static String validate(String har) throws Exception {
        Path dir = Path.of("src/test/har");
        assertThat(dir.resolve("node_modules/har-validator"))
                .as("npm ci in src/test/har (the build's generate-test-resources phase runs src/test/har/install.js)")
                .exists();
        Process p = new ProcessBuilder("node", "validate.js").directory(dir.toFile()).redirectErrorStream(true)
                .start();
        p.getOutputStream().write(har.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
