package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading {@code haproxy://HOST:PORT[,HOST:PORT...]}: what is accepted, and that each refusal names what it refuses. */
class FleetAddressesTest {
    private static final String FORM = "attach: expected haproxy://HOST:PORT[,HOST:PORT...] (got: ";

    @Test
    void attachUrisListInstancesIncludingIpv6() {
        assertThat(HaproxyFleetClient.parseAttach("haproxy://127.0.0.1:9001,127.0.0.1:9002/"))
                .containsExactly(new InetSocketAddress("127.0.0.1", 9001), new InetSocketAddress("127.0.0.1", 9002));
        assertThat(HaproxyFleetClient.parseAttach("HAPROXY://[::1]:9999"))
                .containsExactly(new InetSocketAddress("::1", 9999));
    }

    @Test
    void spacesAroundAnInstanceAreIgnoredAndOrderIsKept() {
        assertThat(FleetAddresses.parse("haproxy://127.0.0.2:2, 127.0.0.1:1"))
                .containsExactly(new InetSocketAddress("127.0.0.2", 2), new InetSocketAddress("127.0.0.1", 1));
    }

    @Test
    void malformedAttachUrisAreRefusedWithTheExpectedForm() {
        for (String bad : List.of("http://h:1", "haproxy://h", "haproxy://h:1,", "haproxy://h:0", "haproxy://h:1/x",
                "haproxy://h:99999")) {
            assertThatThrownBy(() -> HaproxyFleetClient.parseAttach(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("attach: expected haproxy://HOST:PORT[,HOST:PORT...] (got: " + bad + ")");
        }
        assertThatThrownBy(() -> HaproxyFleetClient.connect(List.of())).hasMessageContaining("at least one");
    }

    @Test
    void aBadInstanceIsNamedAfterTheWholeValue() {
        for (String[] c : new String[][]{{"haproxy://127.0.0.1:1,", ""}, {"haproxy://127.0.0.1:1,h:0", "h:0"},
                {"haproxy://h", "h"}, {"haproxy://u@h:1", "u@h:1"}, {"haproxy://h:1?q", "h:1?q"},
                {"haproxy://h:1/x", "h:1/x"}, {"haproxy://127.0.0.1:1,[::1", "[::1"}, {"haproxy://h:99999", "h:99999"}}) {
            assertThatThrownBy(() -> FleetAddresses.parse(c[0])).as(Arrays.toString(c))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(FORM + c[0] + "): '" + c[1] + "' is not HOST:PORT");
        }
    }

    @Test
    void anotherSchemeOrNoneIsRefusedNamingTheValue() {
        assertThatThrownBy(() -> FleetAddresses.parse("http://h:1")).hasMessage(FORM + "http://h:1)");
        assertThatThrownBy(() -> FleetAddresses.parse("h:1")).hasMessage(FORM + "h:1)");
        assertThatThrownBy(() -> FleetAddresses.parse(null)).hasMessage(FORM + "null)");
    }

    @Test
    void aFleetNeedsOneInstanceAtLeastAndEachOnce() {
        assertThatThrownBy(() -> FleetAddresses.checkFleet(List.of()))
                .hasMessage("attach: at least one HAProxy HOST:PORT is needed (got: none)");
        assertThatThrownBy(() -> FleetAddresses.checkFleet(null))
                .hasMessage("attach: at least one HAProxy HOST:PORT is needed (got: none)");
        List<InetSocketAddress> twice = FleetAddresses.parse("haproxy://127.0.0.1:9001,127.0.0.1:9001");
        assertThatThrownBy(() -> HaproxyFleetClient.connect(twice)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attach: an instance is listed twice (got: " + twice + ")");
    }

    @Test
    void theAttachUriIsTheSchemeAndTheInstanceNames() {
        assertThat(FleetAddresses.format(List.of("10.0.0.5:9999", "10.0.0.6:9999")))
                .isEqualTo("haproxy://10.0.0.5:9999,10.0.0.6:9999");
        assertThat(FleetAddresses.parse(FleetAddresses.format(List.of("10.0.0.5:9999", "10.0.0.6:9999"))))
                .containsExactly(new InetSocketAddress("10.0.0.5", 9999), new InetSocketAddress("10.0.0.6", 9999));
    }
}
