package dev.fulcrum.admin;

import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static dev.fulcrum.admin.ExportFixturesForTest.engine;
import static dev.fulcrum.admin.ExportFixturesForTest.richConfig;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /api/config/export} over HTTP on a real admin listener. */
class ConfigExportApiTest {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private Engine engine;
    private AdminServer admin;

    @BeforeEach
    void start() {
        FulcrumConfig config = richConfig(StrategySpec.of(StrategySpec.LEAST_REQUESTS));
        engine = engine(config);
        AdminRuntime runtime = new EngineOnlyRuntime(engine) {
            @Override
            public String export(String format, String pool) {
                return ConfigExport.export(config, engine(), format, pool);
            }
        };
        admin = new AdminServer(runtime, "127.0.0.1", 0, null).start();
    }

    @AfterEach
    void stop() {
        admin.close();
        engine.close();
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + admin.port() + pathAndQuery);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void eachFormatIsServedAsPlainText() throws Exception {
        HttpResponse<String> nginx = get("/api/config/export?format=nginx");
        assertThat(nginx.statusCode()).isEqualTo(200);
        assertThat(nginx.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(nginx.body()).contains("upstream default {", "upstream api {", "least_conn;");

        HttpResponse<String> haproxy = get("/api/config/export?format=haproxy");
        assertThat(haproxy.statusCode()).isEqualTo(200);
        assertThat(haproxy.body()).contains("backend default\n", "    balance leastconn\n");

        HttpResponse<String> envoy = get("/api/config/export?format=envoy");
        assertThat(envoy.statusCode()).isEqualTo(200);
        assertThat(envoy.body()).contains("static_resources:", "lb_policy: LEAST_REQUEST");
    }

    @Test
    void aPoolParameterExportsThatPoolAlone() throws Exception {
        HttpResponse<String> r = get("/api/config/export?format=nginx&pool=api");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("upstream api {").doesNotContain("upstream default");
    }

    @Test
    void badFormatsAndUnknownPoolsAreJsonErrors() throws Exception {
        HttpResponse<String> format = get("/api/config/export?format=caddy");
        assertThat(format.statusCode()).isEqualTo(400);
        assertThat(format.body()).contains("format: one of nginx, haproxy, envoy (got: caddy)");

        HttpResponse<String> pool = get("/api/config/export?format=nginx&pool=nope");
        assertThat(pool.statusCode()).isEqualTo(404);
        assertThat(pool.body()).contains("pool: no such pool (got: nope)");
    }
}
