package dev.fulcrum.config;

import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every file in samples/ is a valid config and shows what its name promises. */
class SamplesTest {
    private static final Path SAMPLES = Path.of("samples");

    static Stream<Path> sampleFiles() throws IOException {
        try (Stream<Path> files = Files.list(SAMPLES)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0} is valid")
    @MethodSource("sampleFiles")
    void everySampleIsAValidConfig(Path file) {
        assertThat(ConfigLoader.check(file)).isEmpty();
    }

    @Test
    void theExpectedSamplesAreAllThere() throws IOException {
        assertThat(sampleFiles().map(p -> p.getFileName().toString())).contains("workshop.json", "hashing.json",
                "bounded-load.json", "breaker-demo.json", "slow-start.json", "slow-backend.json", "sticky.json",
                "local-dev.json", "canary.json", "mirror.json");
    }

    @Test
    void theEmbeddedWorkshopConfigHasThreeDemoBackendsOfDifferentWeightsAndConsistentHashing() {
        FulcrumConfig c = ConfigLoader.workshop();

        assertThat(c.demoBackends()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(c.demoBackends()).extracting(DemoBackendConfig::weight).doesNotHaveDuplicates();
        assertThat(c.demoBackends()).extracting(DemoBackendConfig::port).containsExactly(9101, 9102, 9103);
        assertThat(c.strategy().type()).isEqualTo(StrategySpec.CONSISTENT_HASH);
        assertThat(c.proxy().port()).isEqualTo(8080);
        assertThat(c.admin().port()).isEqualTo(8081);
        assertThat(c.backends()).isEmpty();
        assertThat(c.healthCheck()).isEqualTo(HealthCheckConfig.DEFAULT);
        assertThat(c.circuitBreaker()).isEqualTo(BreakerConfig.DEFAULT);
        assertThat(c.outlierDetection()).isEqualTo(OutlierConfig.DEFAULT);
    }

    @Test
    void theClasspathWorkshopIsTheSameAsTheFileInSamples() {
        assertThat(ConfigLoader.workshop()).isEqualTo(ConfigLoader.load(SAMPLES.resolve("workshop.json")));
    }

    @Test
    void hashingHasEightDemoBackendsOnConsistentHashing() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("hashing.json"));
        assertThat(c.demoBackends()).hasSize(8);
        assertThat(c.strategy().type()).isEqualTo(StrategySpec.CONSISTENT_HASH);
    }

    @Test
    void boundedLoadHashesOnTheUserHeaderWithFactor1_25() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("bounded-load.json"));
        assertThat(c.strategy().type()).isEqualTo(StrategySpec.CONSISTENT_HASH);
        assertThat(c.strategy().number("balanceFactor")).isEqualTo(1.25);
        assertThat(c.strategy().key()).isEqualTo("header:X-User");
    }

    @Test
    void breakerDemoHasAFlakyBackendAndAnEnabledBreaker() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("breaker-demo.json"));
        assertThat(c.circuitBreaker().enabled()).isTrue();
        assertThat(c.demoBackends()).anyMatch(d -> d.errorRate() > 0.3);
    }

    @Test
    void slowStartRampsOverTwentySeconds() {
        assertThat(ConfigLoader.load(SAMPLES.resolve("slow-start.json")).slowStartMs()).isEqualTo(20_000);
    }

    @Test
    void slowBackendHasOneBackendAt300MsUnderLeastRequests() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("slow-backend.json"));
        assertThat(c.strategy().type()).isEqualTo(StrategySpec.LEAST_REQUESTS);
        assertThat(c.demoBackends()).filteredOn(d -> d.latencyMs() == 300).hasSize(1);
    }

    @Test
    void stickyEnablesStickySessions() {
        assertThat(ConfigLoader.load(SAMPLES.resolve("sticky.json")).stickySession().enabled()).isTrue();
    }

    @Test
    void canarySendsTheCanaryHeaderToTheCanaryAndSplitsTheRest95To5StickyByCookieUnderAGuard() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("canary.json"));

        RouteConfig header = c.routes().get(0);
        assertThat(header.match().headers()).containsEntry("X-Canary", MatchValue.exactly("1"));
        assertThat(header.pool()).isEqualTo("canary");
        RouteConfig split = c.routes().get(1);
        assertThat(split.split()).containsExactly(new SplitArmConfig("stable", 95), new SplitArmConfig("canary", 5));
        assertThat(split.stickyBy()).isEqualTo("cookie:user");
        assertThat(split.guard()).isEqualTo(new GuardConfig("canary", 0.05, 0.5, 50, 5000));
        // the canary is worse than stable, so the guard has something to catch
        DemoBackendConfig canary = c.pools().get("canary").demoBackends().get(0);
        assertThat(canary.errorRate()).isGreaterThan(0.05);
        assertThat(c.pools().get("stable").demoBackends()).allMatch(d -> d.errorRate() == 0
                && d.latencyMs() < canary.latencyMs());
    }

    @Test
    void mirrorCopiesTenPercentOfStableToTheShadowPool() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("mirror.json"));

        assertThat(c.routes()).hasSize(1);
        assertThat(c.routes().get(0).pool()).isEqualTo("stable");
        assertThat(c.routes().get(0).mirror()).isEqualTo(new MirrorConfig("shadow", 10, 65536));
        assertThat(c.pools().get("shadow").demoBackends()).isNotEmpty();
    }

    @Test
    void localDevRoutesApiToTwoServersAndTheRestToTheDevServer() {
        FulcrumConfig c = ConfigLoader.load(SAMPLES.resolve("local-dev.json"));

        assertThat(c.demoBackends()).isEmpty();
        assertThat(c.backends()).extracting(BackendConfig::url).containsExactly("http://localhost:5173");
        assertThat(c.pools().get("api").backends()).extracting(BackendConfig::url)
                .containsExactly("http://127.0.0.1:3000", "http://127.0.0.1:3001");
        assertThat(c.routes()).containsExactly(new RouteConfig("/api", "api", false));
        assertThat(c.toRouter().match("/api/users").pool()).isEqualTo("api");
        assertThat(c.toRouter().match("/index.html")).isNull();
        assertThat(c.pools().values().stream().flatMap(p -> p.demoBackends().stream()).toList()).isEqualTo(List.of());
    }
}
