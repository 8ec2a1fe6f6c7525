package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.LoopbackListener;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A backend URL {@code http://localhost:PORT} reaches a dev server that listens on one loopback address alone, either
 * one, whatever the hosts file says (RFC 6761: {@code localhost} is both {@code 127.0.0.1} and {@code ::1}). Node 17+
 * and Vite listen on {@code ::1} alone where the platform resolves {@code localhost} there first, while Java's lookup
 * of this machine's hosts file may give {@code 127.0.0.1} only. Skipped where the machine has no {@code ::1}.
 */
class LocalhostBackendTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private RunningFulcrum f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void localhostReachesAServerOnEitherLoopbackAddressAlone() throws Exception {
        LoopbackListener v6 = own(LoopbackListener.v6Only());
        LoopbackListener v4 = own(LoopbackListener.v4Only());
        f = RunningFulcrum.bareProxy(TestSettings.proxy().build())
                .backend("vite", v6.localhostUrl()).backend("api", v4.localhostUrl()).start();
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // round robin: twice each, the second time on the address that answered
            RunningFulcrum.Answer a = f.proxied("/page");
            assertThat(a.status()).as("answer %d: %s", i, a.body()).isEqualTo(200);
            bodies.add(a.body() + " via " + a.header("X-Fulcrum-Backend"));
        }
        assertThat(bodies).containsOnly(v6.body() + " via vite", v4.body() + " via api").hasSize(4);
        assertThat(v6.hosts).hasSize(2);
        assertThat(v4.hosts).hasSize(2);
    }

    private LoopbackListener own(LoopbackListener l) {
        open.add(l);
        return l;
    }
}
