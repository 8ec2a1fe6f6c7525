package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.Router;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A traffic class's ceiling (docs/REFERENCE.md §2.1 {@code routes[i].maxInFlightPerBackend}) over real HTTP/1.1: with
 * the class's one place on the pool's one backend taken by a slow request, the next request of the class is shed
 * (503, {@code Retry-After: 1}, the proxy's JSON error naming the ceiling) without reaching the backend and without
 * counting against it; a request of another route to the same pool is not held back; once the slow one is answered
 * the class is served again.
 */
class ClassCeilingProxyTest {
    private static final String ROUTES = """
            [{"match": {"headers": {"X-Class": "batch"}}, "pool": "work", "class": "batch",
              "maxInFlightPerBackend": 1},
             {"pathPrefix": "/", "pool": "work"}]""";

    @TempDir
    Path dir;
    private RoutedProxy p;

    @AfterEach
    void stop() {
        if (p != null) {
            p.close();
        }
    }

    @Test
    void aSecondRequestOfTheClassIsShedWhileTheFirstHoldsItsPlace() throws Exception {
        p = new RoutedProxy(dir).pool("default", "d").pool("work", "w").start(ROUTES);
        CountDownLatch hold = new CountDownLatch(1);
        p.backend("w").hold = hold; // the first request holds the class's place until the checks are done
        CompletableFuture<HttpResponse<String>> first = p.f.http().sendAsync(HttpRequest.newBuilder(
                URI.create(p.f.url() + "/first")).header("X-Class", "batch").timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10)).until(() -> p.backend("w").requests.get() == 1);

        var shed = p.get("/second", "X-Class", "batch");
        assertThat(shed.status()).isEqualTo(503);
        assertThat(shed.header("Retry-After")).isEqualTo("1");
        assertThat(shed.header("Content-Type")).isEqualTo("application/json");
        JsonNode error = RoutedProxy.JSON.readTree(shed.body());
        assertThat(error.get("status").asInt()).isEqualTo(503);
        assertThat(error.get("error").asText()).contains("routes[0]", "class batch", "maxInFlightPerBackend", "1");
        assertThat(p.backend("w").requests.get()).as("the backend never had two of the class").isEqualTo(1);
        assertThat(first).isNotDone();

        Router.Route route = p.f.engine().router().route(0);
        assertThat(route.ceiling().shedCount()).isEqualTo(1);
        assertThat(p.f.backend("w").failures()).isZero();

        hold.countDown();
        assertThat(first.get().statusCode()).isEqualTo(200);
        // the place goes back when the exchange completes, which may be just after the client has read the answer
        await().atMost(Duration.ofSeconds(10)).until(() -> p.f.inFlight() == 0);
        assertThat(p.who("/third", "X-Class", "batch")).isEqualTo("w");
        assertThat(route.ceiling().shedCount()).isEqualTo(1);
        assertThat(p.f.backend("w").failures()).isZero();

        await().atMost(Duration.ofSeconds(10)).until(() -> recorded("/second") != null);
        JsonNode r = recorded("/second");
        assertThat(r.get("shed").asBoolean()).isTrue();
        assertThat(r.get("class").asText()).isEqualTo("batch");
        assertThat(r.get("status").asInt()).isEqualTo(503);
        assertThat(recorded("/third").has("shed")).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> line("/second") != null);
        assertThat(line("/second").get("shed").asBoolean()).isTrue();
    }

    @Test
    void anotherRouteToTheSamePoolIsNotHeldByTheClasssCeiling() throws Exception {
        p = new RoutedProxy(dir).pool("default", "d").pool("work", "w").start(ROUTES);
        CountDownLatch hold = new CountDownLatch(1);
        p.backend("w").hold = hold; // the batch request holds the class's place until the plain one arrived
        CompletableFuture<HttpResponse<String>> batch = p.f.http().sendAsync(HttpRequest.newBuilder(
                URI.create(p.f.url() + "/batch")).header("X-Class", "batch").timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10)).until(() -> p.backend("w").requests.get() == 1);
        CompletableFuture<HttpResponse<String>> plain = p.f.http().sendAsync(HttpRequest.newBuilder(
                URI.create(p.f.url() + "/plain")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        // the plain request reaches the backend while the batch one still holds the class's one place there
        await().atMost(Duration.ofSeconds(10)).until(() -> p.backend("w").requests.get() == 2);
        assertThat(batch).isNotDone();
        hold.countDown();
        assertThat(plain.get().statusCode()).isEqualTo(200);
        assertThat(batch.get().statusCode()).isEqualTo(200);
        assertThat(p.f.engine().router().route(0).ceiling().shedCount()).isZero();
    }

    @Test
    void aStickyCookieDoesNotTakeTheClassPastItsCeiling() throws Exception {
        p = new RoutedProxy(dir).pool("default", "d").pool("work", "w1", "w2")
                .extra(",\"stickySession\": {\"enabled\": true, \"cookie\": \"S\", \"ttlSeconds\": 600}")
                .start(ROUTES);
        var first = p.get("/first", "X-Class", "batch");
        String owner = first.body();
        String cookie = first.header("Set-Cookie");
        assertThat(cookie).startsWith("S_work=");
        String token = cookie.substring(0, cookie.indexOf(';'));
        String other = owner.equals("w1") ? "w2" : "w1";
        await().atMost(Duration.ofSeconds(10)).until(() -> p.f.inFlight() == 0); // the first's place is given back
        CountDownLatch hold = new CountDownLatch(1);
        p.backend(owner).hold = hold; // the sticky request holds the class's place there until the checks are done
        CompletableFuture<HttpResponse<String>> held = p.f.http().sendAsync(HttpRequest.newBuilder(
                URI.create(p.f.url() + "/held")).header("X-Class", "batch").header("Cookie", token)
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        await().atMost(Duration.ofSeconds(10)).until(() -> p.backend(owner).requests.get() == 2);

        // the cookie names a backend at the class's ceiling: the pick goes to one below it
        assertThat(p.who("/next", "X-Class", "batch", "Cookie", token)).isEqualTo(other);
        assertThat(p.backend(owner).requests.get()).isEqualTo(2);
        assertThat(held).isNotDone();
        hold.countDown();
        assertThat(held.get().body()).isEqualTo(owner);
        assertThat(p.f.engine().router().route(0).ceiling().shedCount()).isZero();
    }

    private JsonNode recorded(String path) throws Exception {
        for (JsonNode r : p.requests()) {
            if (r.get("path").asText().equals(path)) {
                return r;
            }
        }
        return null;
    }

    private JsonNode line(String path) throws Exception {
        for (JsonNode l : p.logLines()) {
            if (l.get("path").asText().equals(path)) {
                return l;
            }
        }
        return null;
    }
}
