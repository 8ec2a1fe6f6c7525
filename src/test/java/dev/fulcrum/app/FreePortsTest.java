package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import java.net.http.HttpResponse;
import java.net.http.HttpRequest;
import java.net.http.HttpClient;
import java.net.URI;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window falls back to the next free ports when the default ones are taken, and only then: a port a flag or a
 * config file names stays strict, and headless never falls back (the command hands the headless path the config as
 * loaded). docs/REFERENCE.md §1.
 */
class FreePortsTest {
    private static final FulcrumConfig WORKSHOP = ConfigLoader.workshop(); // proxy 8080, admin 8081
    private final List<ServerSocket> held = new ArrayList<>();
    @TempDir
    Path dir;

    @AfterEach
    void release() throws IOException {
        for (ServerSocket s : held) {
            s.close();
        }
    }

    private static BiPredicate<String, Integer> takenAre(Integer... ports) {
        Set<Integer> taken = Set.of(ports);
        return (host, port) -> !taken.contains(port);
    }

    @Test
    void aTakenProxyPortMovesToTheNextFreeOneThatIsNotTheAdminApis() {
        FreePorts f = FreePorts.choose(WORKSHOP, true, true, UnaryOperator.identity(), takenAre(8080));
        FulcrumConfig c = f.apply(WORKSHOP);
        assertThat(c.proxy().port()).isEqualTo(8082);
        assertThat(c.admin().port()).isEqualTo(8081);
        assertThat(f.note()).isEqualTo("port 8080 was taken: proxy on 8082");
    }

    @Test
    void bothTakenMoveBothAndTheNoteSaysEach() {
        FreePorts f = FreePorts.choose(WORKSHOP, true, true, UnaryOperator.identity(), takenAre(8080, 8081, 8082));
        FulcrumConfig c = f.apply(WORKSHOP);
        assertThat(c.proxy().port()).isEqualTo(8083);
        assertThat(c.admin().port()).isEqualTo(8084);
        assertThat(f.note()).isEqualTo("port 8080 was taken: proxy on 8083; port 8081 was taken: admin API on 8084");
    }

    @Test
    void freeDefaultsAndPortsSomeoneChoseStayAsTheyAre() {
        FreePorts free = FreePorts.choose(WORKSHOP, true, true, UnaryOperator.identity(), takenAre());
        assertThat(free.note()).isNull();
        assertThat(free.apply(WORKSHOP)).isEqualTo(WORKSHOP);
        // --proxy-port and --admin-port given: not open to a fallback, taken or not
        FreePorts flags = FreePorts.choose(WORKSHOP, false, false, UnaryOperator.identity(), takenAre(8080, 8081));
        assertThat(flags.note()).isNull();
        assertThat(flags.apply(WORKSHOP)).isEqualTo(WORKSHOP);
    }

    @Test
    void laterConfigsGetTheCommandLinesOverridesThenTheChosenPorts() {
        FreePorts f = FreePorts.choose(WORKSHOP, true, true, c -> c.withTlsPort(9443), takenAre(8080));
        FulcrumConfig reloaded = f.apply(WORKSHOP);
        assertThat(reloaded.proxy().tls().port()).isEqualTo(9443);
        assertThat(reloaded.proxy().port()).isEqualTo(8082);
    }

    @Test
    void theEngineTellsTheWindowWhatMovedForItsTitleBar() {
        FulcrumConfig quiet = ConfigLoader.parse("""
                {"proxy": {"port": 0}, "admin": {"port": 0}, "backends": [{"id": "a", "url": "http://127.0.0.1:9"}],
                 "healthCheck": {"enabled": false}}""");
        FreePorts moved = FreePorts.choose(WORKSHOP, true, true, UnaryOperator.identity(), takenAre(8080));
        try (FulcrumApp app = FulcrumApp.start(quiet, null).overriding(moved)) {
            assertThat(app.portNote()).isEqualTo("port 8080 was taken: proxy on 8082");
        }
        try (FulcrumApp app = FulcrumApp.start(quiet, null).overriding(c -> c)) {
            assertThat(app.portNote()).isNull();
        }
    }

    @Test
    void theWindowOnTheDefaultConfigGetsFreePortsWhileFlagsAndConfigFilesStayStrict() throws Exception {
        hold(8080); // taken: by this test, or by someone else already
        hold(8081);
        Launched def = launch();
        assertThat(def.config.proxy().port()).isNotIn(8080, 8081);
        assertThat(def.config.admin().port()).isNotIn(8080, 8081, def.config.proxy().port());
        assertThat(def.overrides).isInstanceOf(FreePorts.class);
        assertThat(((FreePorts) def.overrides).note()).startsWith("port 8080 was taken: proxy on ")
                .contains("port 8081 was taken: admin API on " + def.config.admin().port());

        Launched flag = launch("--proxy-port", "8080");
        assertThat(flag.config.proxy().port()).isEqualTo(8080);
        assertThat(flag.config.admin().port()).isNotEqualTo(8081); // the default one still moves

        Path file = Files.writeString(dir.resolve("c.json"), """
                {"proxy": {"port": 8080}, "backends": [{"id": "a", "url": "http://127.0.0.1:9001"}]}""");
        Launched fromFile = launch("--config", file.toString());
        assertThat(fromFile.config.proxy().port()).isEqualTo(8080);
        assertThat(fromFile.config.admin().port()).isEqualTo(8081);
        assertThat(fromFile.overrides).isNotInstanceOf(FreePorts.class);
    }

    @Test
    void aDemoBackendsTakenPortMovesPastEveryOtherPortAndLaterConfigsFollow() {
        // 9101 taken, and 9104, the first port past the other demo backends' ports, too
        FreePorts f = FreePorts.choose(WORKSHOP, true, true, UnaryOperator.identity(), takenAre(9101, 9104));
        FulcrumConfig c = f.apply(WORKSHOP);
        assertThat(c.demoBackends()).extracting(d -> d.id() + ":" + d.port())
                .containsExactly("demo-a:9105", "demo-b:9102", "demo-c:9103");
        assertThat(c.proxy().port()).isEqualTo(8080);
        assertThat(f.note()).isEqualTo("port 9101 was taken: demo-a on 9105");
        // a reload of the same config keeps demo-a where it listens
        assertThat(f.apply(WORKSHOP).demoBackends().get(0).port()).isEqualTo(9105);
    }

    @Test
    void aSecondWindowBesideTheFirstStartsItsDemoBackendsOnFreePorts() throws Exception {
        // the first window's engine holds the default ports, its demo backends' among them
        for (int port : new int[] {8080, 8081, 9101, 9102, 9103}) {
            hold(port);
        }
        Launched second = launch();
        assertThat(second.config.demoBackends()).extracting(d -> d.port()).doesNotContain(9101, 9102, 9103);
        assertThat(((FreePorts) second.overrides).note()).contains("port 9101 was taken: demo-a on ");
        try (FulcrumApp app = FulcrumApp.start(second.config, null).overriding(second.overrides)) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(app.proxyUrl() + "/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Demo-Backend")).isPresent();
        }
    }

    private record Launched(FulcrumConfig config, UnaryOperator<FulcrumConfig> overrides) {
    }

    /** Runs the command in window mode with a launcher that only records what it was given. */
    private static Launched launch(String... args) {
        Launched[] got = new Launched[1];
        WindowLauncher recording = new WindowLauncher() {
            @Override
            public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
                got[0] = new Launched(config, overrides);
                return 0;
            }

            @Override
            public int attach(String url, String token) {
                throw new AssertionError("not attaching");
            }
        };
        assertThat(FulcrumCommand.run(args, recording)).isZero();
        return got[0];
    }

    private void hold(int port) {
        try {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress("127.0.0.1", port));
            held.add(s);
        } catch (IOException alreadyTaken) {
            // someone else listens there: taken all the same
        }
    }
}
