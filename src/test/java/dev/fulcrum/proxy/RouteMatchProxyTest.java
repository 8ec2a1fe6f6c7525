package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.testkit.RawHttp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routes that match on more than the path (docs/REFERENCE.md §2.1 {@code routes[i].match}), over real HTTP/1.1: a
 * header's exact value, a regex, present and absent, a cookie, a query parameter, the host and the method, tried in
 * order with the first match winning; prefix-only configs keep the longest prefix; a route's own strategy picks over
 * its pool instead of the pool's. The route, arm and class reach the access log and {@code /api/requests}.
 */
class RouteMatchProxyTest {
    @TempDir
    Path dir;
    private RoutedProxy p;

    @AfterEach
    void stop() {
        if (p != null) {
            p.close();
        }
    }

    private static final String ROUTES = """
            [{"match": {"headers": {"X-Canary": "1"}}, "pool": "canary", "class": "gray"},
             {"match": {"headers": {"x-env": {"regex": "^stag"}}}, "pool": "staging"},
             {"match": {"headers": {"X-Debug": {"present": true}}}, "pool": "debug"},
             {"match": {"cookies": {"beta": "yes"}}, "pool": "beta"},
             {"match": {"query": {"variant": "b"}}, "pool": "variantb"},
             {"match": {"host": "admin.example"}, "pool": "hosted"},
             {"match": {"method": ["DELETE"]}, "pool": "deleter"},
             {"match": {"pathPrefix": "/api", "headers": {"X-Token": {"absent": true}}}, "pool": "anon"}]
            """;

    private void startMatching() {
        p = new RoutedProxy(dir).pool("default", "d").pool("canary", "c").pool("staging", "st").pool("debug", "dbg")
                .pool("beta", "bt").pool("variantb", "vb").pool("hosted", "h").pool("deleter", "del")
                .pool("anon", "an").start(ROUTES);
    }

    @Test
    void aHeaderRouteTakesTheRequestsCarryingItAndNoOthers() {
        startMatching();
        assertThat(p.who("/x", "X-Canary", "1")).isEqualTo("c");
        assertThat(p.who("/x")).isEqualTo("d");
        assertThat(p.who("/x", "X-Canary", "2")).isEqualTo("d");
        assertThat(p.backend("c").requests.get()).isEqualTo(1);
    }

    @Test
    void regexPresentAbsentCookieQueryHostAndMethodEachRouteTheirRequests() throws Exception {
        startMatching();
        assertThat(p.who("/x", "X-Env", "staging-3")).isEqualTo("st");
        assertThat(p.who("/x", "X-Env", "prod-staging")).isEqualTo("d"); // anchored: not found inside
        assertThat(p.who("/x", "X-Debug", "on")).isEqualTo("dbg");
        assertThat(p.who("/x", "Cookie", "a=1; beta=yes")).isEqualTo("bt");
        assertThat(p.who("/x", "Cookie", "beta=no")).isEqualTo("d");
        assertThat(p.who("/x?variant=b&y=1")).isEqualTo("vb");
        assertThat(p.who("/x?variant=a")).isEqualTo("d");
        assertThat(p.who("/api/orders")).isEqualTo("an");
        assertThat(p.who("/api/orders", "X-Token", "t")).isEqualTo("d");
        assertThat(p.who("/apix")).isEqualTo("d");
        RoutedProxyAnswer del = delete();
        assertThat(del.body).isEqualTo("del");
        RawHttp.RawAnswer hosted = p.f.raw(("GET /x HTTP/1.1\r\nHost: Admin.Example:8080\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1), 5_000);
        assertThat(hosted.answers().get(0).body()).isEqualTo("h");
        RawHttp.RawAnswer other = p.f.raw(("GET /x HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1), 5_000);
        assertThat(other.answers().get(0).body()).isEqualTo("d");
    }

    private record RoutedProxyAnswer(int status, String body) {
    }

    private RoutedProxyAnswer delete() {
        var a = p.send(HttpRequest.newBuilder(URI.create(p.f.url() + "/x")).DELETE()
                .timeout(Duration.ofSeconds(20)).build());
        return new RoutedProxyAnswer(a.status(), a.body());
    }

    @Test
    void routesAreTriedInOrderAndTheFirstMatchWins() {
        startMatching();
        // both the first route (X-Canary) and the second (X-Env) match: the first, as written, takes it
        assertThat(p.who("/x", "X-Env", "staging", "X-Canary", "1")).isEqualTo("c");
        // the cookie route is before the query route
        assertThat(p.who("/x?variant=b", "Cookie", "beta=yes")).isEqualTo("bt");
    }

    @Test
    void prefixOnlyRoutesKeepTheLongestPrefixWhateverTheirOrder() {
        p = new RoutedProxy(dir).pool("default", "d").pool("api", "a").pool("admin", "ad")
                .start("""
                        [{"pathPrefix": "/api", "pool": "api"}, {"pathPrefix": "/api/admin", "pool": "admin"}]""");
        assertThat(p.who("/api/admin/x")).isEqualTo("ad");
        assertThat(p.who("/api/x")).isEqualTo("a");
        assertThat(p.who("/other")).isEqualTo("d");
    }

    @Test
    void withAMatchRouteTheOrderAsWrittenWinsOverTheLongerPrefix() {
        p = new RoutedProxy(dir).pool("default", "d").pool("api", "a").pool("admin", "ad")
                .start("""
                        [{"match": {"pathPrefix": "/api", "method": ["GET"]}, "pool": "api"},
                         {"pathPrefix": "/api/admin", "pool": "admin"}]""");
        assertThat(p.who("/api/admin/x")).isEqualTo("a");
    }

    @Test
    void aRoutesOwnStrategyPicksOverItsPoolInsteadOfThePoolsStrategy() {
        // the pool alternates; the VIP route hashes the client's address, so one client always lands on one backend
        p = new RoutedProxy(dir).pool("default", "d").pool("shared", "s1", "s2").start("""
                [{"match": {"headers": {"X-Class": "vip"}}, "pool": "shared", "class": "vip",
                  "strategy": {"type": "ip-hash"}},
                 {"match": {"pathPrefix": "/"}, "pool": "shared"}]""");
        Set<String> vip = new HashSet<>();
        Set<String> plain = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            vip.add(p.who("/x", "X-Class", "vip"));
            plain.add(p.who("/x"));
        }
        assertThat(vip).hasSize(1);
        assertThat(plain).containsExactlyInAnyOrder("s1", "s2");
    }

    @Test
    void theRouteAndClassReachTheAccessLogAndTheRequestStream() throws Exception {
        startMatching();
        p.who("/routed", "X-Canary", "1");
        p.who("/plain");
        await().atMost(Duration.ofSeconds(10)).until(() -> line("/routed") != null && line("/plain") != null);
        JsonNode routed = line("/routed");
        assertThat(routed.get("route").asInt()).isEqualTo(0);
        assertThat(routed.get("class").asText()).isEqualTo("gray");
        assertThat(routed.has("arm")).isFalse();
        assertThat(routed.has("shed")).isFalse();
        JsonNode plain = line("/plain");
        assertThat(plain.has("route")).isFalse();
        assertThat(plain.has("class")).isFalse();

        await().atMost(Duration.ofSeconds(10)).until(() -> recorded("/routed") != null);
        JsonNode r = recorded("/routed");
        assertThat(r.get("route").asInt()).isEqualTo(0);
        assertThat(r.get("class").asText()).isEqualTo("gray");
        assertThat(r.has("mirror")).isFalse();
        assertThat(r.get("pool").asText()).isEqualTo("canary");
        JsonNode pr = recorded("/plain");
        assertThat(pr.has("route")).isFalse();
        assertThat(pr.get("status").asInt()).isEqualTo(200);
    }

    private JsonNode line(String path) throws Exception {
        for (JsonNode l : p.logLines()) {
            if (l.get("path").asText().equals(path)) {
                return l;
            }
        }
        return null;
    }

    private JsonNode recorded(String path) throws Exception {
        for (JsonNode r : p.requests()) {
            if (r.get("path").asText().equals(path)) {
                return r;
            }
        }
        return null;
    }
}
