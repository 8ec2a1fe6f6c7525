package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A test subscriber to {@code GET /api/events} that reads as fast as it can on its own thread and keeps every
 * raw line and every {@code data:} JSON. {@link #open} returns once the server's first comment has arrived,
 * i.e. once the server has registered the subscription.
 */
final class SseTap implements AutoCloseable {
    // lock-free queues, not copy-on-write lists: a flood test pushes tens of thousands of events through
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<JsonNode> events = new ConcurrentLinkedQueue<>();
    private volatile JsonNode last;
    final String contentType;
    private final InputStream in;
    private final Thread reader;

    private SseTap(HttpResponse<InputStream> r) {
        this.contentType = r.headers().firstValue("Content-Type").orElse(null);
        this.in = r.body();
        this.reader = new Thread(this::read, "sse-tap");
        reader.setDaemon(true);
        reader.start();
    }

    static SseTap open(String adminUrl, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(adminUrl + "/api/events"))
                .timeout(Duration.ofSeconds(10)); // for the response headers only: a starved server fails, not hangs
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<InputStream> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            throw new AssertionError("events answered " + r.statusCode());
        }
        SseTap tap = new SseTap(r);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !tap.lines.isEmpty());
        return tap;
    }

    private void read() {
        try (BufferedReader br = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = br.readLine()) != null; ) {
                lines.add(line);
                if (line.startsWith("data: ")) {
                    JsonNode e = Json.MAPPER.readTree(line.substring(6));
                    events.add(e);
                    last = e;
                }
            }
        } catch (Exception e) {
            // closed
        }
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    List<JsonNode> events() {
        return List.copyOf(events);
    }

    /** The newest event, or null. */
    JsonNode last() {
        return last;
    }

    /** The events of one type, as {@code backend:from->to}. */
    List<String> of(String type) {
        return events.stream().filter(e -> e.get("type").asText().equals(type))
                .map(e -> e.path("backend").asText(null) + ":" + e.path("from").asText(null) + "->" + e.path("to").asText(null))
                .toList();
    }

    @Override
    public void close() throws Exception {
        in.close();
        reader.join(Duration.ofSeconds(5).toMillis());
    }
}
