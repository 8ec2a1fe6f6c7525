package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GET /api/events} over real sockets: framing, keep-alive, fan-out, slow clients and event order. */
class AdminEventsTest {

    @Test
    void eventsAreServerSentEventsWithTheContractFields() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp(); SseTap tap = SseTap.open(f.adminUrl(), null)) {
            assertThat(tap.contentType).startsWith("text/event-stream");
            f.call("PUT", "/api/backends/demo-a/weight", "{\"weight\":4}");
            await().atMost(Duration.ofSeconds(10)).until(() -> !tap.of("weight").isEmpty());
            JsonNode e = tap.events().stream().filter(x -> x.get("type").asText().equals("weight")).findFirst().orElseThrow();
            assertThat(e.get("backend").asText()).isEqualTo("demo-a");
            assertThat(e.get("from").asText()).isEqualTo("1");
            assertThat(e.get("to").asText()).isEqualTo("4");
            assertThat(e.get("at").asLong()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
            int data = tap.lines().indexOf("data: " + Json.write(Json.MAPPER.convertValue(e, Object.class)));
            assertThat(tap.lines().get(data - 1)).isEqualTo("event: weight");
            assertThat(tap.lines().get(data + 1)).isEmpty();
        }
    }

    @Test
    void anIdleStreamGetsKeepAliveComments() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            AdminServer quick = new AdminServer(f.app(), "127.0.0.1", 0, null, 100).start();
            try (SseTap tap = SseTap.open(quick.url(), null)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> tap.lines().stream().filter(": keep-alive"::equals).count() >= 2);
                assertThat(tap.lines().get(0)).startsWith(":");
                assertThat(tap.events()).isEmpty();
            } finally {
                quick.close();
            }
        }
    }

    @Test
    void severalClientsEachGetEveryEvent() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp();
             SseTap a = SseTap.open(f.adminUrl(), null); SseTap b = SseTap.open(f.adminUrl(), null);
             SseTap c = SseTap.open(f.adminUrl(), null)) {
            for (int w = 2; w <= 6; w++) {
                f.call("PUT", "/api/backends/demo-b/weight", "{\"weight\":" + w + "}");
            }
            List<String> expected = List.of("demo-b:2->3", "demo-b:3->4", "demo-b:4->5", "demo-b:5->6");
            for (SseTap t : List.of(a, b, c)) {
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(t.of("weight")).endsWith(expected.toArray(String[]::new)));
            }
        }
    }

    /** Open streams each hold a thread; more of them than the admin API has workers must not starve it. */
    @Test
    void manyOpenStreamsDoNotStarveTheOtherEndpoints() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            List<SseTap> taps = new ArrayList<>();
            try {
                for (int i = 0; i < 24; i++) {
                    taps.add(SseTap.open(f.adminUrl(), null));
                }
                assertThat(f.app().admin().eventClients()).isEqualTo(24);
                assertThat(f.get("/api/state").status()).isEqualTo(200);
                assertThat(f.call("PUT", "/api/backends/demo-a/weight", "{\"weight\":5}").status()).isEqualTo(200);
                for (SseTap t : taps) {
                    await().atMost(Duration.ofSeconds(10)).until(() -> t.of("weight").contains("demo-a:1->5"));
                }
            } finally {
                for (SseTap t : taps) {
                    t.close();
                }
            }
            // a client that leaves frees its stream at once, with nothing published meanwhile
            await().atMost(Duration.ofSeconds(5)).until(() -> f.app().admin().eventClients() == 0);
        }
    }

    /**
     * Clients that connect and leave (a reconnecting EventSource, curl -m1) do not keep their slots: held until a
     * keep-alive write failed, 15-30 s later, 256 of them would lock every subscriber out.
     */
    @Test
    void clientsThatLeaveFreeTheirSlotsAtOnce() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp()) {
            java.net.URI admin = java.net.URI.create(f.adminUrl());
            for (int i = 0; i < 300; i++) {
                try (java.net.Socket s = new java.net.Socket(admin.getHost(), admin.getPort())) {
                    s.getOutputStream().write(("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    byte[] head = new byte[12];
                    int n = s.getInputStream().readNBytes(head, 0, head.length);
                    assertThat(new String(head, 0, n, java.nio.charset.StandardCharsets.US_ASCII)).as("client " + i)
                            .isEqualTo("HTTP/1.1 200");
                }
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> f.app().admin().eventClients() == 0);
            try (SseTap t = SseTap.open(f.adminUrl(), null)) {
                assertThat(f.call("PUT", "/api/backends/demo-a/weight", "{\"weight\":5}").status()).isEqualTo(200);
                await().atMost(Duration.ofSeconds(10)).until(() -> t.of("weight").contains("demo-a:1->5"));
            }
        }
    }

    /**
     * A client that never reads fills its socket buffers and then its bounded queue; it must not hold up the
     * publisher or another client, and when it reads again it is told how many events it lost.
     */
    @Test
    void aSlowClientLosesItsOldestEventsAndIsToldWithoutSlowingOthers() throws Exception {
        try (RunningFulcrum f = RunningFulcrum.demoApp(); SseTap fast = SseTap.open(f.adminUrl(), null);
             Socket slow = new Socket()) {
            slow.setReceiveBufferSize(2048);
            slow.connect(new InetSocketAddress("127.0.0.1", f.app().admin().port()), 5000);
            slow.getOutputStream().write("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            slow.getOutputStream().flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> f.app().admin().eventClients() == 2);

            // far more than the socket buffers (4 MB at most here) plus the queue can hold; published in rounds
            // the fast client keeps up with, so any loss would be the server's fault, not the fast client's
            int rounds = 60;
            int perRound = EventStream.BUFFER / 2;
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < perRound; i++) {
                    f.app().engine().publish("flood", "default", "b-" + r + "-" + i, null, "x".repeat(256));
                }
                String last = "b-" + r + "-" + (perRound - 1);
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2))
                        .until(() -> fast.last() != null && last.equals(fast.last().path("backend").asText()));
            }
            f.app().engine().publish("flood", "default", "final-marker", null, null);
            await().atMost(Duration.ofSeconds(10)).until(() -> fast.last() != null && "final-marker".equals(fast.last().path("backend").asText()));
            assertThat(fast.events().stream().filter(e -> e.get("type").asText().equals("flood")).count()).isEqualTo(rounds * perRound + 1L);
            assertThat(fast.of("dropped")).isEmpty();

            // the slow client now reads everything it was sent (with a bigger window, or that alone takes seconds)
            slow.setReceiveBufferSize(1 << 20);
            String got = drain(slow.getInputStream(), "final-marker");
            assertThat(got).contains("event: dropped");
            int at = got.indexOf("\"type\":\"dropped\",\"count\":");
            long count = Long.parseLong(got.substring(at + 25).replaceFirst("(?s)[^0-9].*", "").trim());
            assertThat(count).isPositive();
            assertThat(got).contains("final-marker");
        }
    }

    private static String drain(InputStream in, String until) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String prev = "";
        while (System.nanoTime() < deadline) {
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                continue;
            }
            if (n < 0) {
                break;
            }
            out.write(buf, 0, n);
            // look only at what just arrived (plus an overlap), not the megabytes before it
            String tail = new String(buf, 0, n, StandardCharsets.ISO_8859_1);
            if ((prev + tail).contains(until)) {
                break;
            }
            prev = tail.substring(Math.max(0, tail.length() - until.length()));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A scripted sequence, including a breaker opening under real traffic, arrives in order over SSE. */
    @Test
    void aScriptedSequenceArrivesInOrder() throws Exception {
        String breaker = ", \"healthCheck\": {\"enabled\": false}, \"outlierDetection\": {\"enabled\": false},"
                + " \"circuitBreaker\": {\"enabled\": true, \"window\": 4, \"minimumCalls\": 2,"
                + " \"failureRateThreshold\": 50, \"openMs\": 60000}";
        try (RunningFulcrum f = RunningFulcrum.demoApp(null, breaker);
             SseTap tap = SseTap.open(f.adminUrl(), null)) {
            String demoA = f.app().demos().get("demo-a").url();
            assertThat(f.call("POST", "/api/backends", "{\"id\":\"extra\",\"url\":\"" + demoA + "\"}").status()).isEqualTo(201);
            assertThat(f.call("PUT", "/api/backends/extra/weight", "{\"weight\":3}").status()).isEqualTo(200);
            assertThat(f.call("POST", "/api/backends/demo-b/drain", null).status()).isEqualTo(202);
            assertThat(f.call("PUT", "/api/demo/demo-a", "{\"errorRate\":1}").status()).isEqualTo(200);
            // demo-a and extra (the same failing server) take all traffic now; their breakers must open
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                f.proxied("/boom");
                return tap.of("breaker").containsAll(List.of("extra:CLOSED->OPEN", "demo-a:CLOSED->OPEN"));
            });
            List<String> seq = new ArrayList<>();
            for (JsonNode e : tap.events()) {
                String type = e.get("type").asText();
                if (List.of("membership", "weight", "drain", "demo", "breaker").contains(type)) {
                    seq.add(type + " " + e.path("backend").asText() + (type.equals("demo") ? "" : " " + e.path("from").asText(null) + "->" + e.path("to").asText(null)));
                }
            }
            assertThat(seq).containsSubsequence("membership extra null->added", "weight extra 1->3",
                    "drain demo-b UP->DRAINING", "demo demo-a", "breaker extra CLOSED->OPEN");
            assertThat(seq).containsSubsequence("demo demo-a", "breaker demo-a CLOSED->OPEN");
            long last = 0;
            for (JsonNode e : tap.events()) {
                assertThat(e.get("at").asLong()).isGreaterThanOrEqualTo(last);
                last = e.get("at").asLong();
            }
        }
    }
}
