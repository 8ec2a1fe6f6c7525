package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which recorded headers a replay sends again, and how a recorded target becomes the request's URI. */
class ReplayHeadersTest {
    @Test
    void keepsTheRequestsOwnHeadersInOrderAndDropsCredentialsAndFraming() {
        List<Map.Entry<String, String>> recorded = List.of(Map.entry("accept", "*/*"), Map.entry("AUTHORIZATION", "x"),
                Map.entry(":path", "/"), Map.entry("X-User", "u1"), Map.entry("cookie", "a=b"),
                Map.entry("Set-Cookie", "c=d"), Map.entry("x-csrf-token", "t"), Map.entry("TE", "trailers"),
                Map.entry("Keep-Alive", "5"), Map.entry("Upgrade", "h2c"), Map.entry("Expect", "100-continue"),
                Map.entry("User-Agent", "curl/8"));
        assertThat(ReplayHeaders.kept(recorded)).extracting(Map.Entry::getKey)
                .containsExactly("accept", "X-User", "User-Agent");
    }

    @Test
    void aRecordedTargetIsSentToTheProxyAsTheBrowserWouldEncodeIt() {
        URI proxy = URI.create("http://127.0.0.1:8080");
        assertThat(LiveReplay.uri(proxy, "/a?b=1&c=%20")).hasToString("http://127.0.0.1:8080/a?b=1&c=%20");
        assertThat(LiveReplay.uri(proxy, "/a b?q=é")).hasToString("http://127.0.0.1:8080/a%20b?q=%C3%A9");
        assertThat(LiveReplay.uri(proxy, "https://shop.example/x?y=1")).hasToString("http://127.0.0.1:8080/x?y=1");
        assertThat(LiveReplay.uri(proxy, "https://shop.example")).hasToString("http://127.0.0.1:8080/");
        assertThat(LiveReplay.uri(proxy, "/100%")).hasToString("http://127.0.0.1:8080/100%25");
        assertThat(LiveReplay.uri(proxy, "/p#frag")).hasToString("http://127.0.0.1:8080/p");
        assertThat(LiveReplay.uri(proxy, "")).hasToString("http://127.0.0.1:8080/");
    }
}
