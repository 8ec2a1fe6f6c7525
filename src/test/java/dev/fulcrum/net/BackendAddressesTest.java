package dev.fulcrum.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a backend URL's host stands for (RFC 6761 6.3 for {@code localhost}), and the order addresses are tried in. */
class BackendAddressesTest {
    @Test
    void localhostAndNamesUnderItAreBothLoopbackAddressesWithoutALookup() throws Exception {
        List<InetAddress> both = List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1"));
        for (String name : List.of("localhost", "LOCALHOST", "localhost.", "app.localhost", "a.b.Localhost.")) {
            assertThat(BackendAddresses.isLocalhost(name)).as(name).isTrue();
            assertThat(BackendAddresses.of(name)).as(name).isEqualTo(both);
        }
        for (String name : List.of("localhost.example", "mylocalhost", "127.0.0.1", "[::1]", "example.test")) {
            assertThat(BackendAddresses.isLocalhost(name)).as(name).isFalse();
        }
    }

    @Test
    void aLiteralIsItselfAndANameThatDoesNotResolveIsNothing() throws Exception {
        assertThat(BackendAddresses.of("[::1]")).containsExactly(InetAddress.getByName("::1"));
        assertThat(BackendAddresses.of("10.1.2.3")).containsExactly(InetAddress.getByName("10.1.2.3"));
        assertThat(BackendAddresses.of("nowhere.invalid")).isEmpty(); // RFC 6761 6.4: never resolves
    }

    @Test
    void theAddressThatConnectedLastGoesFirst() {
        assertThat(BackendAddresses.preferring("b", List.of("a", "b", "c"))).containsExactly("b", "a", "c");
        assertThat(BackendAddresses.preferring("a", List.of("a", "b"))).containsExactly("a", "b");
        assertThat(BackendAddresses.preferring(null, List.of("a", "b"))).containsExactly("a", "b");
        assertThat(BackendAddresses.preferring("z", List.of("a", "b"))).containsExactly("a", "b");
    }
}
