package dev.fulcrum.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The strict HTTP/1.1 reference of {@link LlhttpDifferentialTest}: {@code src/test/node/reference.js} in a Node
 * process, Node's own http server, whose parser is llhttp. Its {@code ref} server takes the raw bytes of a case
 * straight, its {@code backend} server stands behind Fulcrum; every message llhttp accepts (method, target, headers,
 * body), every error it raises and every connection's close comes back as an {@link Event}, read from the
 * process's standard output. {@link #sync} is a barrier: every event of what the servers have read by then is here
 * when it returns.
 */
final class NodeReference implements AutoCloseable {
    /** One line of the reference's output. */
    record Event(String srv, int conn, int seq, String type, String method, String url, List<String> headers,
                 String body, boolean complete, String code, String raw) {
        /** The value of the first header {@code name} (any case), or null. */
        String header(String name) {
            for (int i = 0; i + 1 < headers.size(); i += 2) {
                if (headers.get(i).equalsIgnoreCase(name)) {
                    return headers.get(i + 1);
                }
            }
            return null;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final List<Event> events = new ArrayList<>();
    private final HttpClient control = HttpClient.newHttpClient();
    final int refPort;
    final int backendPort;
    private final int ctlPort;
    final String llhttp;
    final String node;

    NodeReference(Path script, int quietMs) throws IOException {
        process = new ProcessBuilder("node", script.toString(), String.valueOf(quietMs))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (first == null) {
            throw new IOException("node " + script + " ended without its ready line");
        }
        JsonNode ready = JSON.readTree(first);
        refPort = ready.get("ref").asInt();
        backendPort = ready.get("backend").asInt();
        ctlPort = ready.get("ctl").asInt();
        llhttp = ready.get("llhttp").asText();
        node = ready.get("node").asText();
        synchronized (events) {
            events.add(null); // the ready line counts in the reference's tally
        }
        Thread reader = new Thread(() -> readEvents(out), "node-reference");
        reader.setDaemon(true);
        reader.start();
    }

    private void readEvents(BufferedReader out) {
        try {
            for (String line; (line = out.readLine()) != null; ) {
                Event e = parse(JSON.readTree(line));
                synchronized (events) {
                    events.add(e);
                    events.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    private static Event parse(JsonNode j) {
        List<String> headers = new ArrayList<>();
        if (j.has("headers")) {
            j.get("headers").forEach(h -> headers.add(h.asText()));
        }
        return new Event(j.path("srv").asText(), j.path("conn").asInt(), j.path("seq").asInt(), j.path("type").asText(),
                j.path("method").asText(null), j.path("url").asText(null), headers, j.path("body").asText(""),
                j.path("complete").asBoolean(false), j.path("code").asText(null), j.path("raw").asText(""));
    }

    /** Returns once every event the reference has printed by now has been read (at most {@code ms}). */
    void sync(long ms) throws IOException, InterruptedException {
        HttpResponse<String> r = control.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ctlPort + "/sync"))
                .timeout(Duration.ofMillis(ms)).build(), HttpResponse.BodyHandlers.ofString());
        int printed = Integer.parseInt(r.body().trim());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        synchronized (events) {
            while (events.size() < printed) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IOException("the reference printed " + printed + " events; " + events.size() + " read");
                }
                events.wait(left);
            }
        }
    }

    /** Every event so far, in the order the reference printed them. */
    List<Event> events() {
        synchronized (events) {
            return List.copyOf(events.subList(1, events.size()));
        }
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
