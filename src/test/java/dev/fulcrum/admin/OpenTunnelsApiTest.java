package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.WebSocketEcho;
import io.undertow.websockets.core.WebSockets;
import java.net.URI;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The WebSockets open now (docs/REFERENCE.md §5): {@code GET /api/tunnels} over real HTTP and
 * {@link EngineClient#openTunnels} in process and attached list an open one with its life and bytes each way so far,
 * as its record will read at the close; once closed it is gone from the list and in the request stream as a 101.
 */
class OpenTunnelsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private WebSocketEcho echo;
    private RunningFulcrum f;

    @BeforeEach
    void start() {
        echo = new WebSocketEcho();
        int port = echo.port();
        f = RunningFulcrum.wholeApp("""
                {"proxy": {"host": "127.0.0.1", "port": 0}, "admin": {"host": "127.0.0.1", "port": 0},
                 "backends": [{"id": "ws", "url": "http://127.0.0.1:%d"}], "healthCheck": {"enabled": false}}
                """.formatted(port)).start();
    }

    @AfterEach
    void stop() {
        f.close();
        echo.close();
    }

    @Test
    void anOpenWebSocketIsListedWithItsBytesSoFarAndLeavesTheListAtItsClose() throws Exception {
        // given a WebSocket through the proxy that sent one message and got its echo
        CompletableFuture<String> echoed = new CompletableFuture<>();
        WebSocket ws = f.http().newWebSocketBuilder().buildAsync(URI.create(f.url().replace("http", "ws")
                + "/ws?room=1"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        echoed.complete(data.toString());
                        w.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        ws.sendText("hello", true).get(5, TimeUnit.SECONDS);
        assertThat(echoed.get(10, TimeUnit.SECONDS)).isEqualTo("echo: hello");
        InProcessEngineClient local = new InProcessEngineClient(f.app());

        // when listed in process
        await().atMost(Duration.ofSeconds(10)).until(() -> local.openTunnels().size() == 1
                && local.openTunnels().get(0).bytesOut() >= "echo: hello".length() + 2);
        RequestSample open = local.openTunnels().get(0);

        // then it reads as its record will at the close, so far
        assertThat(open.id()).startsWith("tunnel:");
        assertThat(open.status()).isEqualTo(101);
        assertThat(open.upgraded()).isTrue();
        assertThat(open.backend()).isEqualTo("ws");
        assertThat(open.path()).isEqualTo("/ws");
        assertThat(open.query()).isEqualTo("room=1");
        assertThat(open.bytesIn()).as("a masked frame of 5 bytes of text").isGreaterThanOrEqualTo(5 + 6);
        assertThat(open.latencyMs()).isPositive();
        assertThat(open.requestHeaders()).anySatisfy(h -> assertThat(h.name()).isEqualToIgnoringCase("Upgrade"));

        // and the same over the admin API, attached and raw
        try (HttpEngineClient remote = new HttpEngineClient(URI.create(f.adminUrl()), null)) {
            List<RequestSample> listed = remote.openTunnels();
            assertThat(listed).singleElement().satisfies(r -> {
                assertThat(r.id()).isEqualTo(open.id());
                assertThat(r.bytesIn()).isEqualTo(open.bytesIn());
                assertThat(r.bytesOut()).isEqualTo(open.bytesOut());
                assertThat(r.latencyMs()).isGreaterThanOrEqualTo(open.latencyMs());
            });
        }
        JsonNode raw = JSON.readTree(f.get("/api/tunnels").body());
        assertThat(raw).hasSize(1);
        assertThat(raw.get(0).get("status").asInt()).isEqualTo(101);
        assertThat(raw.get(0).get("upgraded").asBoolean()).isTrue();

        // when it closes, it leaves the list and is recorded as a 101
        ws.sendClose(1000, "done").get(5, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> local.openTunnels().isEmpty());
        await().atMost(Duration.ofSeconds(10)).until(() -> f.proxy().requests().recent(10).stream()
                .anyMatch(r -> r.upgraded() && r.bytesIn() >= open.bytesIn()));
        assertThat(JSON.readTree(f.get("/api/tunnels").body())).isEmpty();
    }
}
