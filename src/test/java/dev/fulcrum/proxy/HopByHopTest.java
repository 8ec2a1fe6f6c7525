package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.undertow.util.HeaderMap;
import io.undertow.util.HttpString;
import org.junit.jupiter.api.Test;

class HopByHopTest {

    private static HeaderMap headers(String... nameValue) {
        HeaderMap h = new HeaderMap();
        for (int i = 0; i < nameValue.length; i += 2) {
            h.add(new HttpString(nameValue[i]), nameValue[i + 1]);
        }
        return h;
    }

    @Test
    void headersTheConnectionHeaderNamesAreDroppedWithTheHopByHopOnes() {
        HeaderMap in = headers("Connection", " keep-alive, X-A ,x-b,, ", "Connection", "Close", "X-A", "1", "X-B", "2",
                "X-C", "3", "Keep-Alive", "timeout=5", "Transfer-Encoding", "chunked", "Upgrade", "websocket",
                "Content-Length", "4");
        ProxyExchange.stripHopByHop(in, false);
        assertThat(in.getHeaderNames()).extracting(HttpString::toString)
                .containsExactlyInAnyOrder("X-C", "Content-Length");
    }

    @Test
    void anUpgradeKeepsItsUpgradeHeaderAndSaysSoInConnection() {
        HeaderMap in = headers("Connection", "Upgrade, X-A", "Upgrade", "websocket", "X-A", "1", "Sec-WebSocket-Key", "k");
        ProxyExchange.stripHopByHop(in, true);
        assertThat(in.getFirst("Upgrade")).isEqualTo("websocket");
        assertThat(in.getFirst("Connection")).isEqualTo("Upgrade");
        assertThat(in.getFirst("Sec-WebSocket-Key")).isEqualTo("k");
        assertThat(in.contains("X-A")).isFalse();
    }
}
