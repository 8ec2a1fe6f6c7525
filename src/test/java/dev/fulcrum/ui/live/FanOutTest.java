package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.ArmInfo;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.MirrorInfo;
import dev.fulcrum.admin.EngineState.PoolInfo;
import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.requests.RequestSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Live stage with routes that split and mirror: its groups, edges and mirrored rings, on a hand-moved clock. */
class FanOutTest {
    private double t;
    private final LiveModel model = new LiveModel(() -> t);

    static BackendInfo backend(String id, String pool) {
        return new BackendInfo(id, pool, "http://127.0.0.1:1", 1, 1, "UP", "UP", null, 0, 0, 0, 0, 0, 0, 0, false,
                null, 0, 0, false, Map.of(), null, null);
    }

    static EngineState state(List<RouteInfo> routes) {
        Map<String, PoolInfo> pools = new LinkedHashMap<>();
        for (String p : List.of("default", "stable", "canary", "shadow")) {
            pools.put(p, new PoolInfo(Map.of("type", "round-robin"), false, 0));
        }
        return new EngineState("http://127.0.0.1:8080", Map.of(), pools, routes,
                List.of(backend("d1", "default"), backend("s1", "stable"), backend("s2", "stable"),
                        backend("c1", "canary"), backend("m1", "shadow")));
    }

    static RouteInfo splitRoute() {
        return new RouteInfo(0, null, null, false, Map.of("headers", Map.of("X-Canary", "1")), null, null, null,
                List.of(new ArmInfo("stable", 90, 0.9, 0.88, 880, 2, 14.7, 0.002, 8, 30),
                        new ArmInfo("canary", 10, 0.1, 0.12, 120, 6, 2.0, 0.05, 9, 70)),
                null, new MirrorInfo("shadow", 100, 65536, 1234, 3, 0, 0, 0), null, 0);
    }

    @Test
    void withoutSplitsOrMirrorsTheStageIsAsAlways() {
        assertThat(FanOut.of(state(List.of(new RouteInfo("/api", "stable", false))), "default")).isNull();
        assertThat(FanOut.of(state(List.of()), "default")).isNull();
        // the old layout: the proxy where it always was
        StageLayout plain = new StageLayout(1200, 700, List.of("a", "b", "c"));
        assertThat(plain.groups()).isEmpty();
        assertThat(plain.proxy().centre().x()).isCloseTo(504, within(0.5));
    }

    @Test
    void oneGroupPerPoolAndAnEdgePerArmAndMirror() {
        FanOut f = FanOut.of(state(List.of(splitRoute())), "default");
        assertThat(f.groups()).extracting(FanOut.Group::pool).containsExactly("stable", "canary", "shadow", "default");
        assertThat(f.group("stable").label()).isEqualTo("stable · route 0 (X-Canary: 1)");
        assertThat(f.group("shadow").label()).isEqualTo("shadow · mirror of route 0");
        assertThat(f.group("shadow").mirror()).isTrue();
        assertThat(f.group("default").label()).isEqualTo("default · the other requests");
        assertThat(f.group("stable").backends()).containsExactly("s1", "s2");
        assertThat(f.edges()).containsExactly(
                new FanOut.Edge("stable", "90% set · 88% measured", "14.7 req/s", false),
                new FanOut.Edge("canary", "10% set · 12% measured", "2.0 req/s", false),
                new FanOut.Edge("shadow", "mirror 100%", "1,234 copies", true));
        assertThat(f.backends()).containsExactly("s1", "s2", "c1", "m1", "d1");
    }

    @Test
    void aPlainRoutesPoolHasItsGroupOnceAnotherRouteFansOutAndAnEmptyDefaultHasNone() {
        RouteInfo plain = new RouteInfo(1, "/", "default", false, null, null, null, null, null, null, null, null, 0);
        FanOut f = FanOut.of(state(List.of(splitRoute(), plain)), "default");
        assertThat(f.group("default").label()).as("its requests land in its group").isEqualTo("default · route 1 (/)");
        assertThat(f.backends()).contains("d1");

        EngineState noDefaultBackends = new EngineState("http://127.0.0.1:8080", Map.of(), state(List.of()).pools(),
                List.of(splitRoute()), List.of(backend("s1", "stable"), backend("c1", "canary"), backend("m1", "shadow")));
        assertThat(FanOut.of(noDefaultBackends, "default").group("default")).as("nothing to draw there").isNull();
    }

    @Test
    void groupsStandInOneColumnUnderTheirLabelsWithoutOverlapping() {
        FanOut f = FanOut.of(state(List.of(splitRoute())), "default");
        for (double[] size : new double[][] {{1280, 600}, {1024, 520}, {800, 400}}) {
            StageLayout l = new StageLayout(size[0], size[1], f.backends(), f);
            assertThat(l.groups().keySet()).containsExactly("stable", "canary", "shadow", "default");
            double lastBottom = -1;
            for (FanOut.Group g : f.groups()) {
                StageLayout.Box box = l.groups().get(g.pool());
                assertThat(box.y()).as("below the group before").isGreaterThan(lastBottom);
                for (String b : g.backends()) {
                    StageLayout.Box card = l.card(b);
                    assertThat(card.y()).as(b + " under its label").isGreaterThanOrEqualTo(box.y()
                            + StageLayout.GROUP_HEAD);
                    assertThat(card.y() + card.h()).as(b + " inside its group").isLessThanOrEqualTo(box.y() + box.h());
                }
                lastBottom = box.y() + box.h();
            }
            assertThat(lastBottom).as("on the stage").isLessThanOrEqualTo(size[1]);
            assertThat(l.proxyOut().x()).as("room for the edges' labels").isLessThan(l.groups().get("stable").x() - 120);
        }
    }

    static RequestSample sample(int status, String backend, RequestSample.Routing routing) {
        return new RequestSample("0:1", 0, "stable", "GET", "/", null, "http", "HTTP/1.1", "10.0.0.1", null, 0,
                backend == null ? List.of() : List.of(new RequestSample.Attempt(backend, "SUCCESS", 1)), backend,
                status, 0, 5, 10, false, false, false, false, false, List.of(), List.of(), null, routing);
    }

    @Test
    void aMirroredCopyIsARingThatFadesAtTheMirrorPoolAndIsNeverCounted() {
        FanOut f = FanOut.of(state(List.of(splitRoute())), "default");
        StageLayout l = new StageLayout(1200, 700, f.backends(), f);
        RequestSample client = sample(200, "c1", new RequestSample.Routing(0, "canary", null, false, false));
        RequestSample copy = sample(500, "m1", new RequestSample.Routing(0, "canary", null, true, false));
        model.offer(new RequestSource.Batch(List.of(client, copy), 0));

        assertThat(model.requests()).as("the client's request only").isEqualTo(1);
        assertThat(model.mirrors()).isEqualTo(1);
        Flight ring = model.flights().stream().filter(Flight::mirror).findFirst().orElseThrow();
        Flight dot = model.flights().stream().filter(x -> !x.mirror()).findFirst().orElseThrow();
        assertThat(dot.destination()).as("the arm's backend").isEqualTo("c1");
        assertThat(ring.destination()).isEqualTo("m1");
        assertThat(ring.kind()).as("its outcome's colour").isEqualTo(Flight.Kind.SERVER_ERROR);

        // it leaves the proxy as the client's dot arrives there, reaches the mirror's card, then fades there
        double start = ring.born();
        assertThat(start).isGreaterThanOrEqualTo(dot.born() + Flight.TO_PROXY);
        Flight.Position leaving = ring.at(start, l);
        assertThat(leaving.x()).isCloseTo(l.proxyOut().x(), within(0.5));
        Flight.Position there = ring.at(start + Flight.TO_BACKEND, l);
        assertThat(there.x()).isCloseTo(l.card("m1").entry().x(), within(0.5));
        assertThat(there.y()).isCloseTo(l.card("m1").entry().y(), within(0.5));
        Flight.Position fading = ring.at(start + Flight.TO_BACKEND + Flight.MIRROR_FADE / 2, l);
        assertThat(fading.fading()).isTrue();
        assertThat(ring.at(start + ring.length() + 0.01, l)).as("gone, and never back to a client").isNull();
        assertThat(ring.length()).isCloseTo(Flight.TO_BACKEND + Flight.MIRROR_FADE, within(1e-9));
    }

    @Test
    void copiesDoNotRaiseTheScaleNorTheRate() {
        // 300 copies a second beside 100 client requests: one dot a request still, the copies do not crowd them out
        t = 0;
        model.offer(new RequestSource.Batch(List.of(), 0));
        for (int frame = 1; frame <= 20; frame++) {
            t = frame * 0.05;
            List<RequestSample> batch = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                batch.add(sample(200, "s1", new RequestSample.Routing(0, "stable", null, false, false)));
            }
            for (int i = 0; i < 15; i++) {
                batch.add(sample(200, "m1", new RequestSample.Routing(0, "stable", null, true, false)));
            }
            model.offer(new RequestSource.Batch(batch, 0));
        }
        assertThat(model.requests()).isEqualTo(100);
        assertThat(model.mirrors()).isEqualTo(300);
        assertThat(model.scale()).isEqualTo(1);
    }

    @Test
    void aShedRequestIsARefusalAtTheProxy() {
        model.offer(new RequestSource.Batch(List.of(sample(503, null,
                new RequestSample.Routing(1, null, "batch", false, true))), 0));
        assertThat(model.flights()).singleElement().satisfies(f -> {
            assertThat(f.refused()).isTrue();
            assertThat(f.kind()).isEqualTo(Flight.Kind.REFUSED);
        });
        assertThat(model.requests()).isEqualTo(1);
    }
}
