package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.RunningFulcrum;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class HttpEngineClientTest extends EngineClientContract {
    @Override
    EngineClient connect(RunningFulcrum f) {
        return new HttpEngineClient(URI.create(f.adminUrl()), null);
    }

    @Test
    void describesItselfAsTheRemoteEngineAtItsAdminUrl() {
        assertThat(client.describe()).isEqualTo("remote engine at " + fulcrum.adminUrl());
    }

    @Test
    void theEventStreamReconnectsAfterTheServerComesBackAndSaysSo() {
        List<EngineEvent> seen = new CopyOnWriteArrayList<>();
        client.subscribe(seen::add);
        int adminPort = fulcrum.app().admin().port();
        fulcrum.close();
        fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoJson(null, RunningFulcrum.QUIET).replace(
                "\"admin\": {\"host\": \"127.0.0.1\", \"port\": 0", "\"admin\": {\"host\": \"127.0.0.1\", \"port\": " + adminPort)).start();
        await().atMost(Duration.ofSeconds(20)).until(() -> seen.stream().anyMatch(e -> e.type().equals("reconnected")));
        client.setWeight("demo-a", 8);
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.stream()
                .anyMatch(e -> e.type().equals("weight") && "demo-a".equals(e.backend()) && "8".equals(e.to())));
        assertThat(client.state().backend("demo-a").weight()).isEqualTo(8);
    }

    @Test
    void anUnreachableEngineIsAnIoErrorNotARefusal() throws Exception {
        int port = FreePort.loopback();
        try (HttpEngineClient gone = new HttpEngineClient(URI.create("http://127.0.0.1:" + port), null)) {
            assertThatThrownBy(gone::state).isInstanceOf(UncheckedIOException.class).hasMessageContaining("/api/state");
        }
    }

    @Test
    void errorsKeepTheServersStatusAndMessageEvenWhenTheBodyIsNotJson() {
        assertThat(HttpEngineClient.error(404, "{\"error\":\"id: no such backend (got: x)\",\"status\":404}"))
                .hasMessage("id: no such backend (got: x)").extracting(EngineException::status).isEqualTo(404);
        assertThat(HttpEngineClient.error(502, "<html>Bad gateway</html>")).hasMessage("<html>Bad gateway</html>")
                .extracting(EngineException::status).isEqualTo(502);
        assertThat(HttpEngineClient.error(503, "")).hasMessage("HTTP 503");
    }

    @Test
    void aDroppedNoticeBecomesAnEventCarryingTheCount() {
        EngineEvent e = HttpEngineClient.parseEvent("dropped", "{\"type\":\"dropped\",\"count\":17}");
        assertThat(e.type()).isEqualTo("dropped");
        assertThat(e.to()).isEqualTo("17");
    }

    @Test
    void onlyAbsoluteHttpUrlsAreAccepted() {
        assertThatThrownBy(() -> new HttpEngineClient(URI.create("haproxy://h:1"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("admin url: ");
        assertThat(new HttpEngineClient(URI.create("http://127.0.0.1:9/"), null).adminUrl())
                .isEqualTo(URI.create("http://127.0.0.1:9"));
    }
}
