package dev.fulcrum.ui.workshop.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.ui.SessionTraffic;
import org.junit.jupiter.api.Test;

class TrafficTargetTest {
    @Test
    void aProxyOnEveryInterfaceIsReachedWhereTheAdminApiIs() {
        // before: traffic for a remote engine whose proxy listens on 0.0.0.0 went to 0.0.0.0, this machine
        assertThat(SessionTraffic.reachable("0.0.0.0", "10.1.2.3")).isEqualTo("10.1.2.3");
        assertThat(SessionTraffic.reachable("[::]", "edge.internal")).isEqualTo("edge.internal");
        assertThat(SessionTraffic.reachable("0.0.0.0", null)).isEqualTo("127.0.0.1"); // embedded
        assertThat(SessionTraffic.reachable("127.0.0.1", "10.1.2.3")).isEqualTo("127.0.0.1");
        assertThat(SessionTraffic.reachable("proxy.internal", "10.1.2.3")).isEqualTo("proxy.internal");
    }
}
