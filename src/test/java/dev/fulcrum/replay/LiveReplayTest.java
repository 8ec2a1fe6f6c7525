package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A live replay through a real proxy to a real loopback backend that records what arrives: what is sent (methods,
 * targets, bodies, the headers kept and not the credentials), when (in recorded order, never before its due time),
 * the summary line, the cap on requests in flight, and cancel.
 */
@DisplayName("Live replay through the proxy")
@Timeout(60)
class LiveReplayTest {
    private RecordingBackend backend;
    private RunningFulcrum fulcrum;
    /** When each target arrived at the backend, on the JVM's monotonic clock (the replay's ticker reads the same). */
    private final Map<String, Long> arrivals = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        backend = new RecordingBackend("b");
        fulcrum = RunningFulcrum.bareProxy(TestSettings.proxy().build()).backend(backend).start();
    }

    @AfterEach
    void stop() {
        fulcrum.close();
    }

    private static RecordedRequest req(long atMicros, String method, String target, List<Map.Entry<String, String>> headers,
                                       String body, long line) {
        return new RecordedRequest(atMicros, method, target, headers,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), Double.NaN, null, 0, null, line);
    }

    private LiveReplay replay(List<RecordedRequest> requests, double speed) {
        return LiveReplay.of(LiveReplay.Source.of(requests), URI.create(fulcrum.url()), speed);
    }

    @Test
    void sendsTheRecordedMethodsTargetsBodiesAndHeadersButNoCredentials() throws Exception {
        // given a recording with a query string, bodies, and credentials and framing among its headers
        List<Map.Entry<String, String>> headers = List.of(Map.entry("X-User", "u-17"), Map.entry("Accept", "text/csv"),
                Map.entry("Authorization", "Bearer secret"), Map.entry("Cookie", "sid=42"),
                Map.entry("X-Api-Key", "k-1"), Map.entry("X-Auth-Token", "t-1"), Map.entry("Host", "shop.example"),
                Map.entry("Connection", "keep-alive"), Map.entry(":authority", "shop.example"),
                Map.entry("Content-Length", "999"), Map.entry("Transfer-Encoding", "chunked"),
                Map.entry("Proxy-Authorization", "Basic eDp5"));
        List<RecordedRequest> recording = List.of(
                req(1_000_000, "GET", "/search?q=shoes&page=2", headers, null, 1),
                req(1_010_000, "POST", "/orders", List.of(Map.entry("Content-Type", "application/json")),
                        "{\"sku\":\"a-1\",\"n\":2}", 2),
                req(1_020_000, "PUT", "/orders/7", headers, "n=3", 3),
                req(1_030_000, "DELETE", "/orders/7?reason=dup", List.of(), null, 4),
                req(1_040_000, "GET", "/a b/é?x=1 2", List.of(), null, 5));

        // when it is replayed at 1x
        ReplayProgress last = replay(recording, 1).start().done().get(20, TimeUnit.SECONDS);

        // then each arrived as recorded
        assertThat(last.sent()).isEqualTo(5);
        assertThat(last.answered()).isEqualTo(5);
        assertThat(last.failed()).isZero();
        assertThat(backend.seen).hasSize(5);
        Map<String, RecordingBackend.Seen> byMethod = new java.util.HashMap<>();
        backend.seen.forEach(s -> byMethod.merge(s.method() + " " + s.uri() + (s.query().isEmpty() ? "" : "?" + s.query()),
                s, (a, b) -> a));
        assertThat(byMethod).containsOnlyKeys("GET /search?q=shoes&page=2", "POST /orders", "PUT /orders/7",
                "DELETE /orders/7?reason=dup", "GET /a%20b/%C3%A9?x=1%202");
        assertThat(byMethod.get("POST /orders").body()).isEqualTo("{\"sku\":\"a-1\",\"n\":2}");
        assertThat(byMethod.get("POST /orders").headers().get("content-type")).containsExactly("application/json");
        assertThat(byMethod.get("PUT /orders/7").body()).isEqualTo("n=3");
        assertThat(byMethod.get("GET /search?q=shoes&page=2").body()).isEmpty();
        for (String target : List.of("GET /search?q=shoes&page=2", "PUT /orders/7")) {
            Map<String, List<String>> h = byMethod.get(target).headers();
            assertThat(h.get("x-user")).containsExactly("u-17");
            assertThat(h.get("accept")).containsExactly("text/csv");
            // no credential reaches the backend, and the framing is the replay's own
            assertThat(h).doesNotContainKeys("authorization", "cookie", "x-api-key", "x-auth-token",
                    "proxy-authorization", "transfer-encoding", ":authority");
            assertThat(h.get("host")).doesNotContain("shop.example");
        }
        assertThat(byMethod.get("PUT /orders/7").headers().get("content-length")).containsExactly("3");
    }

    @Test
    void sendsInRecordedOrderAndNothingBeforeItsDueTime() throws Exception {
        // given 40 requests 20 ms apart, read slightly out of order (as an nginx log writes them, at their ends)
        List<RecordedRequest> recording = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            recording.add(req(5_000_000 + i * 20_000L, "GET", "/r/" + i, List.of(), null, i + 1));
        }
        List<RecordedRequest> read = new ArrayList<>(recording);
        Collections.shuffle(read.subList(0, 20), new Random(7));
        Collections.shuffle(read.subList(20, 40), new Random(8));
        List<LiveReplay.Send> sends = new CopyOnWriteArrayList<>();
        backendRecordsArrivals();

        // when it is replayed at 2x
        LiveReplay replay = replay(read, 2).onSend(sends::add);
        ReplayProgress last = replay.start().done().get(20, TimeUnit.SECONDS);

        // then it was sent in time order, each at or after its due time (its offset / 2), and every one arrived
        assertThat(sends).extracting(s -> s.request().target())
                .containsExactlyElementsOf(recording.stream().map(RecordedRequest::target).toList());
        for (int i = 0; i < sends.size(); i++) {
            LiveReplay.Send s = sends.get(i);
            assertThat(s.dueNanos()).isEqualTo(i * 10_000_000L);
            assertThat(s.sentNanos()).isGreaterThanOrEqualTo(s.dueNanos());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 40);
        for (int i = 0; i < 40; i++) {
            assertThat(arrivals.get("/r/" + i) - replay.startedAtNanos()).as("/r/" + i)
                    .isGreaterThanOrEqualTo(i * 10_000_000L);
        }
        // the whole replay took at least the recording's span over the speed
        assertThat(last.sendingNanos()).isGreaterThanOrEqualTo(39 * 10_000_000L);
        assertThat(last.recordedNanos()).isEqualTo(39 * 20_000_000L);
        assertThat(last.total()).isEqualTo(40);
        assertThat(last.answered()).isEqualTo(40);
    }

    private void backendRecordsArrivals() {
        // the recording backend's list is appended on arrival; a watcher thread stamps each new entry
        Thread t = new Thread(() -> {
            int seen = 0;
            while (!Thread.currentThread().isInterrupted()) {
                while (seen < backend.seen.size()) {
                    arrivals.putIfAbsent(backend.seen.get(seen++).uri(), System.nanoTime());
                }
                Thread.onSpinWait();
            }
        }, "arrival-stamps");
        t.setDaemon(true);
        t.start();
        fulcrum.own(t::interrupt);
    }

    @Test
    void endsWithTheSummaryLine() throws Exception {
        List<RecordedRequest> recording = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            recording.add(req(i * 10_000L, "GET", "/s/" + i, List.of(), null, i + 1));
        }
        ReplayProgress last = replay(recording, 10).start().done().get(20, TimeUnit.SECONDS);
        assertThat(last.summaryLine()).matches(
                "replay: 30 requests in \\d+\\.\\d\\d s \\(\\d+\\.\\d req/s\\), \\d+ late by more than 10 ms, 0 failed");
        assertThat(last.state()).isEqualTo(ReplayProgress.State.DONE);
        assertThat(last.cancelled()).isFalse();
        assertThat(last.fraction()).isEqualTo(1.0);
    }

    @Test
    void aRequestThatMustWaitForAFreeSlotIsLate() throws Exception {
        // given a backend that holds every answer until the test lets them go
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        dev.fulcrum.testkit.RawBackend held = dev.fulcrum.testkit.RawBackend.scripted(request -> {
            try {
                hold.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        });
        try (RunningFulcrum proxy = RunningFulcrum.bareProxy(TestSettings.proxy().build()).backend("h", held).start()) {
            int n = LiveReplay.MAX_IN_FLIGHT + 10;
            List<RecordedRequest> recording = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                recording.add(req(0, "GET", "/c/" + i, List.of(), null, i + 1));
            }
            // when they are all due at once
            LiveReplay replay = LiveReplay.of(LiveReplay.Source.of(recording), URI.create(proxy.url()), 1).start();
            await().atMost(Duration.ofSeconds(30)).until(() -> replay.progress().sent() == LiveReplay.MAX_IN_FLIGHT);
            hold.countDown();
            ReplayProgress last = replay.done().get(30, TimeUnit.SECONDS);

            // then the ten beyond the cap waited for slots, counted late, and were sent all the same
            assertThat(last.waitedForSlot()).isEqualTo(10);
            assertThat(last.late()).isGreaterThanOrEqualTo(10);
            assertThat(last.sent()).isEqualTo(n);
            assertThat(last.answered()).isEqualTo(n);
            assertThat(last.byStatus()).containsExactly(Map.entry(200, (long) n));
            assertThat(held.messages).hasSize(n);
        } finally {
            hold.countDown();
        }
    }

    @Test
    void cancelStopsSending() throws Exception {
        // given a replay of 10 s, under way
        List<RecordedRequest> recording = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            recording.add(req(i * 10_000L, "GET", "/x/" + i, List.of(), null, i + 1));
        }
        LiveReplay replay = replay(recording, 1).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> replay.progress().sent() >= 5);

        // when it is cancelled
        replay.cancel();

        // then it is done with what was sent by then, all of it answered, and says so
        ReplayProgress last = replay.done().get(20, TimeUnit.SECONDS);
        assertThat(last.sent()).isBetween(5L, 999L);
        assertThat(last.answered()).isEqualTo(last.sent());
        assertThat(backend.seen).hasSize((int) last.sent());
        assertThat(last.cancelled()).isTrue();
        assertThat(last.summaryLine()).startsWith("replay: cancelled after " + last.sent() + " of 1000 requests in ");
    }

    @Test
    void refusesASpeedOutOfRange() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> replay(List.of(), 0))
                .hasMessage("speed: must be between 0.01 and 1000 (got: 0.0)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> replay(List.of(), 2000))
                .hasMessage("speed: must be between 0.01 and 1000 (got: 2000.0)");
    }

    @Test
    void anEmptyRecordingIsDoneAtOnce() throws Exception {
        ReplayProgress last = replay(List.of(), 1).start().done().get(10, TimeUnit.SECONDS);
        assertThat(last.total()).isZero();
        assertThat(last.summaryLine()).isEqualTo("replay: 0 requests in 0.00 s (0.0 req/s), 0 late by more than 10 ms, 0 failed");
    }
}
