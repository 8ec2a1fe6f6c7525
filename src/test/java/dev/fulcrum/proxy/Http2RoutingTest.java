package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.ValueMatcher;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routes over the HTTP/2 front: the host a route matches is the request's {@code :authority}, a query parameter is
 * read from its {@code :path}, cookies sent as fields of their own are all seen, and a mirrored request's body is
 * teed off its DATA frames as over HTTP/1.1.
 */
class Http2RoutingTest {
    @TempDir
    Path dir;
    private RunningFulcrum f;
    private final List<RecordingBackend> backends = new ArrayList<>();

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        backends.forEach(RecordingBackend::close);
    }

    private RecordingBackend backend(String name) {
        RecordingBackend b = new RecordingBackend(name);
        backends.add(b);
        return b;
    }

    private static Router.Route route(RouteMatch m, String pool, Mirror mirror) {
        return new Router.Route(m, pool, false, null, null, null, null, mirror, null);
    }

    private static RouteMatch match(ValueMatcher host, List<RouteMatch.Named> cookies, List<RouteMatch.Named> query) {
        return new RouteMatch(null, host, Set.of(), List.of(), cookies, query);
    }

    @Test
    void hostQueryCookieAndMirrorWorkOverHttp2() throws Exception {
        RecordingBackend d = backend("d");
        f = RunningFulcrum.bareProxy(TestSettings.proxy().build()
                .withTls(new dev.fulcrum.proxy.ProxySettings.Tls(0, null, null, dir))).backend("d", d.url()).start();
        Engine e = f.engine();
        for (String pool : List.of("q", "h", "c", "m")) {
            e.addPool(pool, StrategySpec.of(StrategySpec.ROUND_ROBIN));
            e.addBackend(pool, new BackendSpec(pool + "1", backend(pool + "1").url(), 1, null, false), false);
        }
        e.setRouter(new Router(List.of(
                route(match(null, List.of(), List.of(new RouteMatch.Named("variant", ValueMatcher.exact("b")))), "q",
                        new Mirror("m", 100, 1024)),
                route(match(ValueMatcher.exact("admin.example"), List.of(), List.of()), "h", null),
                route(match(null, List.of(new RouteMatch.Named("beta", ValueMatcher.exact("yes"))), List.of()), "c",
                        null))));
        RawH2 c = new RawH2("127.0.0.1", f.proxy().tlsPort(), true);
        f.own(c);
        String authority = "localhost:" + f.proxy().tlsPort();

        assertThat(get(c, authority, "/x?variant=b", List.of())).isEqualTo("q1");
        assertThat(get(c, authority, "/x?variant=a", List.of())).isEqualTo("d");
        assertThat(get(c, "admin.example:" + f.proxy().tlsPort(), "/x", List.of())).isEqualTo("h1");
        assertThat(get(c, authority, "/x", List.of(new String[] {"cookie", "a=1"}, new String[] {"cookie", "beta=yes"})))
                .isEqualTo("c1");
        assertThat(get(c, authority, "/x", List.<String[]>of(new String[] {"cookie", "beta=no"}))).isEqualTo("d");

        byte[] body = "mirrored over h2".getBytes(StandardCharsets.ISO_8859_1);
        int id = c.request(List.of(new String[] {":method", "POST"}, new String[] {":scheme", "https"},
                new String[] {":authority", authority}, new String[] {":path", "/orders?variant=b"}), false);
        c.data(id, body, true);
        RawH2.Stream s = c.streams.get(id);
        assertThat(s.done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.body.toString(StandardCharsets.ISO_8859_1)).isEqualTo("q1");
        RecordingBackend shadow = backends.stream().filter(b -> b.name.equals("m1")).findFirst().orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> shadow.seen.size() == 2);
        RecordingBackend.Seen copy = shadow.seen.get(1);
        assertThat(copy.method()).isEqualTo("POST");
        assertThat(copy.body()).isEqualTo("mirrored over h2");
        assertThat(copy.headers().get("x-fulcrum-mirror")).containsExactly("1");
    }

    private static String get(RawH2 c, String authority, String path, List<String[]> extra) throws Exception {
        List<String[]> fields = new ArrayList<>(List.of(new String[] {":method", "GET"},
                new String[] {":scheme", "https"}, new String[] {":authority", authority},
                new String[] {":path", path}));
        fields.addAll(extra);
        int id = c.request(fields, true);
        RawH2.Stream s = c.streams.get(id);
        assertThat(s.done.await(10, TimeUnit.SECONDS)).as(path).isTrue();
        assertThat(s.status).as(path).isEqualTo(200);
        return s.body.toString(StandardCharsets.ISO_8859_1);
    }
}
