package dev.fulcrum.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

class ConfigWriterTest {
    /** A config that sets something in every section, so the round trip covers every field. */
    private static FulcrumConfig everything() {
        return new FulcrumConfig(
                new ProxyConfig("0.0.0.0", 18080, 16384, 5000, "/tmp/access.log", false,
                        new TlsConfig(true, 18443, null, null, false), 3),
                new AdminConfig("0.0.0.0", 18081, "s3cret"),
                StrategySpec.bare("consistent-hash").with("key", "header:X-User").with("virtualNodes", 200).with("balanceFactor", 1.25),
                List.of(new BackendConfig("a", "http://10.0.0.1:9001", 3, 10, false),
                        new BackendConfig("b", "http://10.0.0.2:9001", 0, null, true)),
                List.of(new DemoBackendConfig("demo-a", 19101, 2, 300, 0.25)),
                new HealthCheckConfig(false, "/ready", 500, 250, 204, 1, 5),
                new OutlierConfig(false, 3, 1000, 10),
                new BreakerConfig(false, 10, 5, 40.5, 100, 90, 2000, 1),
                new RetryConfig(0, true),
                new TimeoutConfig(100, 200, 300, 400),
                7000,
                new StickyConfig(true, "SID", 60, "a-secret-of-16-chars+"),
                Map.of("api", new PoolConfig(StrategySpec.bare("adaptive").with("weights", Map.of("cpu", 1.0, "latency", 0.0)).with("staleAfterMs", 500L),
                        List.of(BackendConfig.of("api-1", "http://127.0.0.1:3000", 1)),
                        List.of(DemoBackendConfig.of("api-demo", 0, 2)))
                        .withFallback(StrategySpec.bare("power-of-two").with("choices", 3), 40)),
                List.of(new RouteConfig("/api", "api", true)), List.of(),
                StrategySpec.bare("least-requests"), 250);
    }

    @Test
    void aConfigWithEveryFieldSetSurvivesWriteThenRead() {
        FulcrumConfig c = everything();
        assertThat(ConfigValidator.validate(c)).isEmpty();

        String json = ConfigWriter.toJson(c);

        assertThat(ConfigLoader.parse(json)).isEqualTo(c);
    }

    @Test
    void everySampleSurvivesWriteThenRead() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("samples"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                FulcrumConfig c = ConfigLoader.load(f);
                assertThat(ConfigLoader.parse(ConfigWriter.toJson(c))).as(f.toString()).isEqualTo(c);
            }
        }
    }

    @Test
    void theOutputShowsNullFieldsButOnlyTheStrategyFieldsItsTypeUses() {
        JsonNode tree = ConfigWriter.toTree(ConfigLoader.workshop());

        assertThat(tree.get("proxy").has("accessLog")).isTrue();
        assertThat(tree.get("proxy").get("accessLog").isNull()).isTrue();
        assertThat(tree.get("admin").get("token").isNull()).isTrue();
        assertThat(tree.get("strategy").properties()).extracting(Map.Entry::getKey)
                .containsExactly("type", "key", "virtualNodes");
        assertThat(ConfigWriter.toJson(ConfigLoader.workshop())).contains("\"port\": 8080").endsWith("}\n");
    }

    @Test
    void theWriterWritesOnlyTheContractFieldNames() {
        JsonNode tree = ConfigWriter.toTree(everything());

        assertThat(tree.properties()).extracting(Map.Entry::getKey).containsExactly("proxy", "admin", "strategy",
                "backends", "demoBackends", "healthCheck", "outlierDetection", "circuitBreaker", "retries",
                "timeouts", "slowStartMs", "stickySession", "pools", "routes", "discovery", "fallback",
                "pluginBudgetMs");
        assertThat(tree.get("pools").get("api").properties()).extracting(Map.Entry::getKey)
                .containsExactly("strategy", "backends", "demoBackends", "discovery", "fallback", "pluginBudgetMs");
    }

    @Test
    void writeAtomicallyReplacesTheFileWithTheWholeNewConfig(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("fulcrum.json");
        Files.writeString(target, "old");

        ConfigWriter.writeAtomically(target, everything());

        assertThat(ConfigLoader.load(target)).isEqualTo(everything());
        assertThat(dir.toFile().list()).containsExactly("fulcrum.json");
    }

    @Test
    void writeAtomicallyKeepsThePermissionsOfTheFileItReplaces(@TempDir Path dir) throws IOException {
        assumeThat(dir.getFileSystem().supportedFileAttributeViews()).contains("posix");
        Path target = dir.resolve("fulcrum.json");
        Files.writeString(target, "old");
        Set<PosixFilePermission> perms = PosixFilePermissions.fromString("rw-r-----");
        Files.setPosixFilePermissions(target, perms);

        ConfigWriter.writeAtomically(target, ConfigLoader.workshop());

        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(perms);
    }

    @Test
    void aConfigThatWouldNotLoadBackIsNeverWrittenAndTheOldFileStays(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("fulcrum.json");
        Files.writeString(target, "old content");
        // NaN has no JSON number form: it would be written as the string "NaN" and refused on the next start
        FulcrumConfig broken = FulcrumConfig.of(null, List.of(),
                List.of(new DemoBackendConfig("d", 9101, 1, 5, Double.NaN)));

        assertThatThrownBy(() -> ConfigWriter.writeAtomically(target, broken))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("demoBackends[0].errorRate");

        assertThat(Files.readString(target)).isEqualTo("old content");
        assertThat(dir.toFile().list()).containsExactly("fulcrum.json");
    }

    @Test
    void aFailedRenameLeavesTheTargetAndNoTemporaryFile(@TempDir Path dir) throws IOException {
        // a non-empty directory where the file should go: the rename is refused after the temp file is written
        Path target = dir.resolve("fulcrum.json");
        Files.createDirectory(target);
        Files.writeString(target.resolve("keep.txt"), "kept");

        assertThatThrownBy(() -> ConfigWriter.writeAtomically(target, ConfigLoader.workshop()))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(target.toString());

        assertThat(Files.readString(target.resolve("keep.txt"))).isEqualTo("kept");
        assertThat(dir.toFile().list()).containsExactly("fulcrum.json");
    }

    @Test
    void aReadOnlyDirectoryRefusesTheWriteAndTheOldFileStays(@TempDir Path dir) throws IOException {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Path target = ro.resolve("fulcrum.json");
        Files.writeString(target, "old content");
        assumeThat(ro.toFile().setWritable(false, false)).as("can make a directory read-only").isTrue();
        try {
            // root ignores directory permissions; there is nothing to test then
            assumeThat(Files.isWritable(ro)).as("directory really read-only (not root)").isFalse();

            assertThatThrownBy(() -> ConfigWriter.writeAtomically(target, ConfigLoader.workshop()))
                    .isInstanceOf(UncheckedIOException.class);

            assertThat(Files.readString(target)).isEqualTo("old content");
            assertThat(ro.toFile().list()).containsExactly("fulcrum.json");
        } finally {
            ro.toFile().setWritable(true, false);
        }
    }

    @Test
    void aMissingDirectoryIsReportedNotCreated(@TempDir Path dir) {
        Path target = dir.resolve("missing").resolve("fulcrum.json");

        assertThatThrownBy(() -> ConfigWriter.writeAtomically(target, ConfigLoader.workshop()))
                .isInstanceOf(UncheckedIOException.class);
        assertThat(Files.exists(target.getParent())).isFalse();
    }
}
