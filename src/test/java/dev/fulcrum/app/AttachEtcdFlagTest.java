package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.config.FulcrumConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@code --attach etcd://...} (docs/REFERENCE.md §1): the address and the {@code --etcd-*} flags are checked before a
 * window opens (a bad one is one line naming it, exit 2); a good one goes to the window with its flags. A launcher
 * that records what it was given stands in for the window.
 */
class AttachEtcdFlagTest {
    @Test
    void anEtcdAddressOpensTheFleetWindowWithTheFlags() {
        Recording window = new Recording();
        int code = FulcrumCommand.run(new String[] {"--attach", "etcd://127.0.0.1:2379/shop", "--etcd-user",
                "ops:s3cret"}, window);
        assertThat(code).isZero();
        assertThat(window.url).isEqualTo("etcd://127.0.0.1:2379/shop");
        assertThat(window.etcd).isNotNull();
        var options = window.etcd.options(dev.fulcrum.etcd.EtcdAddress.parse(window.url), k -> null);
        assertThat(options.user()).isEqualTo("ops");
        assertThat(options.password()).isEqualTo("s3cret");
        assertThat(options.endpoints()).extracting(Object::toString).containsExactly("http://127.0.0.1:2379");
    }

    @Test
    void aBadAddressOrFlagIsOneLineAndExitTwo() {
        assertThat(refused("--attach", "etcd://127.0.0.1:x/shop")).contains("127.0.0.1:x");
        assertThat(refused("--attach", "etcd://127.0.0.1:2379/shop", "--etcd-cert", "client.pem"))
                .contains("--etcd-cert").contains("client.pem");
        assertThat(refused("--attach", "etcd://127.0.0.1:2379/shop", "--etcd-cacert", "ca.pem"))
                .contains("--etcd-cacert").contains("etcds://");
    }

    /** The command's error output, once it refused to open a window (exit 2). */
    private static String refused(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertThat(FulcrumCommand.run(args, new Recording())).isEqualTo(2);
        } finally {
            System.setErr(err);
        }
        String text = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(text.lines()).hasSize(1);
        return text;
    }

    /** Stands in for the window: records the fleet it was asked to attach to. */
    static final class Recording implements WindowLauncher {
        String url;
        EtcdFlags etcd;

        @Override
        public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
            throw new AssertionError("not embedded");
        }

        @Override
        public int attach(String url, String token) {
            throw new AssertionError("an etcd address goes with its flags");
        }

        @Override
        public int attach(String url, String token, EtcdFlags etcd) {
            this.url = url;
            this.etcd = etcd;
            return 0;
        }
    }
}
