package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoFleetTest {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void startsEveryBackendAndFindsThemById() throws Exception {
        try (DemoFleet fleet = DemoFleet.start(List.of(
                new DemoSpec("a", 0, 5, 0, 0), new DemoSpec("b", 0, 1, 0, 0), new DemoSpec("c", 0, 1, 0, 0)))) {
            assertThat(fleet.all()).extracting(DemoBackend::id).containsExactly("a", "b", "c");
            assertThat(fleet.get("a").weight()).isEqualTo(5);
            assertThat(fleet.get("nope")).isNull();
            for (DemoBackend b : fleet.all()) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(b.url() + "/")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.body()).isEqualTo("hello from " + b.id());
            }
        }
    }

    @Test
    void closeStopsEveryBackend() {
        DemoFleet fleet = DemoFleet.start(List.of(DemoSpec.of("a", 0, 1), DemoSpec.of("b", 0, 1)));
        List<Integer> ports = fleet.all().stream().map(DemoBackend::port).toList();
        fleet.close();
        assertThat(fleet.all()).isEmpty();
        for (int port : ports) {
            assertThatThrownBy(() -> new Socket().connect(new InetSocketAddress("127.0.0.1", port), 2000))
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void aDuplicateIdIsRefused() {
        assertThatThrownBy(() -> DemoFleet.start(List.of(DemoSpec.of("a", 0, 1), DemoSpec.of("a", 0, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("id: already exists (got: a)");
    }

    @Test
    void aPortInUseStopsTheOnesAlreadyStartedAndNamesTheBackend() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> DemoFleet.start(List.of(
                    DemoSpec.of("ok", 0, 1), DemoSpec.of("clash", taken.getLocalPort(), 1))))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("demoBackends[clash]: port: cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void addAndRemoveWhileRunning() {
        try (DemoFleet fleet = DemoFleet.start(List.of(DemoSpec.of("a", 0, 1)))) {
            DemoBackend b = fleet.add(DemoSpec.of("b", 0, 2));
            assertThat(fleet.get("b")).isSameAs(b);
            int port = b.port();
            assertThat(fleet.remove("b")).isTrue();
            assertThat(fleet.remove("b")).isFalse();
            assertThat(fleet.all()).extracting(DemoBackend::id).containsExactly("a");
            assertThatThrownBy(() -> new Socket().connect(new InetSocketAddress("127.0.0.1", port), 2000))
                    .isInstanceOf(ConnectException.class);
        }
    }
}
