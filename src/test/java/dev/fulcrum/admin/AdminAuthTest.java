package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.testkit.RunningFulcrum;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/REFERENCE.md §4: with {@code admin.token} every {@code /api/*} and {@code /metrics} needs the Bearer token. */
class AdminAuthTest {
    private static final String TOKEN = "s3cret-token";
    private static final List<String[]> ENDPOINTS = List.of(
            new String[]{"GET", "/api/state", null},
            new String[]{"POST", "/api/backends", "{\"id\":\"x\",\"url\":\"http://127.0.0.1:1\"}"},
            new String[]{"PUT", "/api/backends/demo-a/weight", "{\"weight\":3}"},
            new String[]{"POST", "/api/backends/demo-a/drain", null},
            new String[]{"POST", "/api/backends/demo-a/enable", null},
            new String[]{"DELETE", "/api/backends/demo-b", null},
            new String[]{"PUT", "/api/strategy", "{\"type\":\"round-robin\"}"},
            new String[]{"GET", "/api/ring", null},
            new String[]{"GET", "/api/ring/lookup?key=k", null},
            new String[]{"POST", "/api/ring/preview", "{\"remove\":[\"demo-a\"]}"},
            new String[]{"GET", "/api/events", null},
            new String[]{"GET", "/api/config", null},
            new String[]{"PUT", "/api/config", "{}"},
            new String[]{"GET", "/api/config/export?format=nginx", null},
            new String[]{"GET", "/api/demo", null},
            new String[]{"PUT", "/api/demo/demo-a", "{\"down\":true}"},
            new String[]{"GET", "/api/health/history", null},
            new String[]{"GET", "/api/no-such-endpoint", null},
            new String[]{"GET", "/metrics", null});

    @Test
    void withATokenEveryApiAndMetricsRequestWithoutItIs401AndChangesNothing() {
        try (RunningFulcrum f = RunningFulcrum.demoApp(TOKEN, RunningFulcrum.QUIET)) {
            String before = f.get("/api/state").body();
            for (String[] e : ENDPOINTS) {
                for (String auth : new String[]{null, "wrong", TOKEN + "x", ""}) {
                    RunningFulcrum.Answer a = f.call(e[0], e[1], e[2], auth);
                    assertThat(a.status()).as(e[0] + " " + e[1] + " with " + auth).isEqualTo(401);
                    assertThat(a.header("WWW-Authenticate")).isEqualTo("Bearer");
                    assertThat(AdminApiTest.json(a.body()).get("status").asInt()).isEqualTo(401);
                }
            }
            assertThat(f.get("/api/state").body()).isEqualTo(before);
            assertThat(f.app().demos().get("demo-a").isDown()).isFalse();
        }
    }

    @Test
    void withTheRightTokenRequestsAreServed() {
        try (RunningFulcrum f = RunningFulcrum.demoApp(TOKEN, RunningFulcrum.QUIET)) {
            assertThat(f.call("GET", "/api/state", null, TOKEN).status()).isEqualTo(200);
            assertThat(f.call("GET", "/metrics", null, TOKEN).status()).isEqualTo(200);
            assertThat(f.call("PUT", "/api/backends/demo-a/weight", "{\"weight\":3}", TOKEN).status()).isEqualTo(200);
            // a config read back over the API carries the token, so saving it keeps the protection
            assertThat(ConfigLoader.parse(f.call("GET", "/api/config", null, TOKEN).body()).admin().token()).isEqualTo(TOKEN);
        }
    }

    @Test
    void withoutATokenNothingIsAsked() {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            assertThat(f.call("GET", "/api/state", null, null).status()).isEqualTo(200);
            assertThat(f.call("GET", "/metrics", null, null).status()).isEqualTo(200);
            assertThat(f.call("GET", "/api/state", null, "anything").status()).isEqualTo(200);
        }
    }

    @Test
    void theRemoteClientSendsItsTokenAndReportsA401() {
        try (RunningFulcrum f = RunningFulcrum.demoApp(TOKEN, RunningFulcrum.QUIET);
             HttpEngineClient good = new HttpEngineClient(URI.create(f.adminUrl()), TOKEN);
             HttpEngineClient bad = new HttpEngineClient(URI.create(f.adminUrl()), "nope")) {
            good.setWeight("demo-a", 4);
            assertThat(good.state().backend("demo-a").weight()).isEqualTo(4);
            assertThatThrownBy(bad::state).isInstanceOfSatisfying(EngineException.class, e -> {
                assertThat(e.status()).isEqualTo(401);
                assertThat(e.getMessage()).isEqualTo("Authorization: a valid Bearer token is required");
            });
        }
    }

    @Test
    void aWebPageOfAnotherSiteCannotChangeOrReadTheStateEvenWithoutAToken() throws Exception {
        // a "simple" cross-origin POST (text/plain, no preflight) from a page in the operator's browser, and a page
        // served from a name re-pointed at 127.0.0.1 (DNS rebinding)
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            URI admin = URI.create(f.adminUrl());
            String self = admin.getHost() + ":" + admin.getPort();
            String add = "{\"id\":\"evil\",\"url\":\"http://127.0.0.1:1\",\"weight\":1000}";
            String before = f.get("/api/state").body();
            String crossSite = raw(admin, "POST /api/backends HTTP/1.1\r\nHost: " + self + "\r\nOrigin: http://evil.example\r\n"
                    + "Content-Type: text/plain\r\nContent-Length: " + add.length() + "\r\nConnection: close\r\n\r\n" + add);
            assertThat(crossSite).startsWith("HTTP/1.1 403").contains("Origin: requests from web pages of other sites are refused");
            String rebound = raw(admin, "GET /api/state HTTP/1.1\r\nHost: rebind.evil.example:" + admin.getPort()
                    + "\r\nConnection: close\r\n\r\n");
            assertThat(rebound).startsWith("HTTP/1.1 403").contains("Host: without admin.token only a loopback name");
            assertThat(f.get("/api/state").body()).isEqualTo(before);
            // the API's own origin, and loopback names, are served
            String sameSite = raw(admin, "POST /api/backends/demo-a/drain HTTP/1.1\r\nHost: " + self + "\r\nOrigin: http://" + self
                    + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            assertThat(sameSite).startsWith("HTTP/1.1 202");
            assertThat(raw(admin, "GET /api/state HTTP/1.1\r\nHost: localhost:" + admin.getPort() + "\r\nConnection: close\r\n\r\n"))
                    .startsWith("HTTP/1.1 200");
        }
    }

    private static String raw(URI admin, String request) throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket(admin.getHost(), admin.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aNonLoopbackAdminHostWithoutATokenIsAConfigError() {
        for (String host : List.of("0.0.0.0", "10.1.2.3", "::")) {
            String json = RunningFulcrum.demoJson(null, RunningFulcrum.QUIET)
                    .replace("\"admin\": {\"host\": \"127.0.0.1\"", "\"admin\": {\"host\": \"" + host + "\"");
            assertThatThrownBy(() -> ConfigLoader.parse(json)).as(host).isInstanceOfSatisfying(ConfigException.class,
                    e -> assertThat(e.lines()).anyMatch(l -> l.startsWith("config error: admin.token: required when admin.host is not loopback")));
            assertThat(ConfigLoader.parse(json.replace(host + "\", \"port\": 0}", host + "\", \"port\": 0, \"token\": \"t\"}")).admin().host())
                    .isEqualTo(host);
        }
        for (String host : List.of("localhost", "127.0.0.1", "::1")) {
            String json = RunningFulcrum.demoJson(null, RunningFulcrum.QUIET)
                    .replace("\"admin\": {\"host\": \"127.0.0.1\"", "\"admin\": {\"host\": \"" + host + "\"");
            assertThat(ConfigLoader.parse(json).admin().token()).isNull();
        }
    }

    @Test
    void aTokenChangedThroughTheConfigTakesEffectAtOnce() {
        try (RunningFulcrum f = RunningFulcrum.demoApp(TOKEN, RunningFulcrum.QUIET)) {
            String rotated = RunningFulcrum.demoJson("rotated-token", RunningFulcrum.QUIET);
            assertThat(f.call("PUT", "/api/config", rotated, TOKEN).status()).isEqualTo(200);
            assertThat(f.call("GET", "/api/state", null, TOKEN).status()).isEqualTo(401);
            assertThat(f.call("GET", "/api/state", null, "rotated-token").status()).isEqualTo(200);

            String none = RunningFulcrum.demoJson(null, RunningFulcrum.QUIET);
            assertThat(f.call("PUT", "/api/config", none, "rotated-token").status()).isEqualTo(200);
            assertThat(f.call("GET", "/metrics", null, null).status()).isEqualTo(200);
        }
    }

    /** Listens on 0.0.0.0 briefly (with a token) to prove the token cannot be dropped from a public listener. */
    @Test
    void theTokenCannotBeDroppedWhileTheAdminApiListensOnANonLoopbackHost() {
        String wildcard = RunningFulcrum.demoJson(TOKEN, RunningFulcrum.QUIET)
                .replace("\"admin\": {\"host\": \"127.0.0.1\"", "\"admin\": {\"host\": \"0.0.0.0\"");
        try (RunningFulcrum f = RunningFulcrum.wholeApp(wildcard).token(TOKEN).start()) {
            String before = f.call("GET", "/api/config", null, TOKEN).body();
            RunningFulcrum.Answer a = f.call("PUT", "/api/config", RunningFulcrum.demoJson(null, RunningFulcrum.QUIET), TOKEN);
            assertThat(a.status()).isEqualTo(400);
            assertThat(AdminApiTest.json(a.body()).get("errors").get(0).asText())
                    .startsWith("admin.token: required while the admin API listens on 0.0.0.0");
            assertThat(f.call("GET", "/api/state", null, null).status()).isEqualTo(401);
            assertThat(f.call("GET", "/api/config", null, TOKEN).body()).isEqualTo(before);
        }
    }
}
