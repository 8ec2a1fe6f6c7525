package dev.fulcrum.admin;

import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.ConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real {@link FulcrumApp} for the admin tests: proxy, admin API and demo backends all on OS-chosen ports of
 * 127.0.0.1, plus a small {@code java.net.http} client for its admin API and proxy.
 */
final class RunningFulcrum implements AutoCloseable {
    /** Two demo backends on round-robin (the only strategy every branch has); health checks off for quiet. */
    static final String CONFIG = """
            {
              "proxy": {"host": "127.0.0.1", "port": 0},
              "admin": {"host": "127.0.0.1", "port": 0%s},
              "strategy": {"type": "round-robin"},
              "demoBackends": [
                {"id": "demo-a", "port": 0, "weight": 1, "latencyMs": 0, "errorRate": 0.0},
                {"id": "demo-b", "port": 0, "weight": 2, "latencyMs": 0, "errorRate": 0.0}
              ],
              "retries": {"maxRetries": 0}%s
            }
            """;

    /** Health checks off, so no probe events interleave with what a test scripts. */
    static final String QUIET = ", \"healthCheck\": {\"enabled\": false}";

    final FulcrumApp app;
    final String admin;
    final String proxy;
    final String token;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private RunningFulcrum(FulcrumApp app, String token) {
        this.app = app;
        this.admin = app.admin().url();
        this.proxy = app.proxy().url();
        this.token = token;
    }

    static RunningFulcrum start() {
        return start(null, QUIET);
    }

    /** @param extra more top-level fields, starting with a comma, e.g. {@code ,"circuitBreaker":{...}} */
    static RunningFulcrum start(String token, String extra) {
        return startJson(config(token, extra), null, token);
    }

    static String config(String token, String extra) {
        return CONFIG.formatted(token == null ? "" : ", \"token\": \"" + token + "\"", extra);
    }

    static RunningFulcrum startJson(String json, Path file, String token) {
        return new RunningFulcrum(FulcrumApp.start(ConfigLoader.parse(json), file), token);
    }

    record Answer(int status, String body, HttpResponse<String> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    Answer get(String path) {
        return call("GET", path, null);
    }

    Answer call(String method, String path, String body) {
        return call(method, path, body, token);
    }

    /** One admin request; {@code auth} null sends no Authorization header. */
    Answer call(String method, String path, String body, String auth) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(admin + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            b.header("Authorization", "Bearer " + auth);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return send(b.build());
    }

    /** A request through the proxy. */
    Answer proxied(String path) {
        return send(HttpRequest.newBuilder(URI.create(proxy + path)).timeout(Duration.ofSeconds(20)).build());
    }

    /** A request through the proxy with one extra header. */
    Answer proxied(String path, String header, String value) {
        return send(HttpRequest.newBuilder(URI.create(proxy + path)).header(header, value)
                .timeout(Duration.ofSeconds(20)).build());
    }

    private Answer send(HttpRequest r) {
        try {
            HttpResponse<String> resp = http.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Answer(resp.statusCode(), resp.body(), resp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        app.close();
    }
}
