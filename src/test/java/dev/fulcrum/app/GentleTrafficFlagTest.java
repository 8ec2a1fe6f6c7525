package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.FulcrumConfig;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Which windows open with gentle traffic (docs/REFERENCE.md §1): the one on the embedded default config, unless
 * {@code --no-traffic}; never one on a config file. The command hands the window its choice; a launcher that records
 * what it was given stands in for the window.
 */
class GentleTrafficFlagTest {
    @Test
    void theDefaultConfigsWindowStartsGentleTraffic() {
        assertThat(launch()).isTrue();
    }

    @Test
    void noTrafficOpensTheDefaultConfigsWindowWithout() {
        assertThat(launch("--no-traffic")).isFalse();
    }

    @Test
    void aConfigFilesWindowStartsNone() {
        assertThat(launch("--config", "samples/hashing.json")).isFalse();
        assertThat(launch("--config", "samples/workshop.json")).as("the default's file, given").isFalse();
    }

    @Test
    void aFileGivenAsTheDesktopHandsItIsTheConfigOrARecordingToReplay(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        Path har = java.nio.file.Files.writeString(dir.resolve("checkout.HAR"), dev.fulcrum.testkit.HarFiles.har(3, 10));
        Recording window = new Recording();
        assertThat(FulcrumCommand.run(new String[] {"samples/hashing.json"}, window)).isZero();
        assertThat(window.configFile).isEqualTo(Path.of("samples/hashing.json"));
        assertThat(window.replay).isNull();

        assertThat(FulcrumCommand.run(new String[] {har.toString()}, window)).isZero();
        assertThat(window.configFile).as("a recording opens on the default config").isNull();
        assertThat(window.replay).isNotNull();

        assertThat(FulcrumCommand.run(new String[] {"--config", "samples/hashing.json", "samples/workshop.json"},
                window)).as("a config given twice").isEqualTo(2);
    }

    /** Runs the command in window mode with a launcher that only records whether it was asked for traffic. */
    private static boolean launch(String... args) {
        Recording window = new Recording();
        assertThat(FulcrumCommand.run(args, window)).isZero();
        return window.gentle;
    }

    /** Stands in for the window: records what the command asked it to open. */
    static final class Recording implements WindowLauncher {
        Path configFile;
        dev.fulcrum.replay.ReplayFiles.Checked replay;
        boolean gentle;

        @Override
        public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
            throw new AssertionError("the command says whether the window starts traffic");
        }

        @Override
        public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                            boolean gentleTraffic, dev.fulcrum.replay.ReplayFiles.Checked recorded, double speed) {
            this.configFile = configFile;
            this.replay = recorded;
            this.gentle = gentleTraffic;
            return 0;
        }

        @Override
        public int attach(String url, String token) {
            throw new AssertionError("not attaching");
        }
    }
}
