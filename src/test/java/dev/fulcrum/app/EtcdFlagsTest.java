package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The {@code --etcd-*} and {@code --instance-id} flags as the command line reads them (docs/REFERENCE.md §1). */
class EtcdFlagsTest {
    @TempDir
    Path dir;

    private static EtcdFlags parse(String... args) {
        EtcdFlags flags = new EtcdFlags();
        new CommandLine(flags).parseArgs(args);
        return flags;
    }

    @Test
    void theUsersPasswordComesAfterTheColonOrFromTheEnvironment() {
        EtcdAddress plain = EtcdAddress.parse("etcd://127.0.0.1:2379/p");
        EtcdOptions given = parse("--etcd-user", "ops:s3:cret").options(plain, Map.<String, String>of()::get);
        assertThat(given.user()).isEqualTo("ops");
        assertThat(given.password()).isEqualTo("s3:cret");

        EtcdOptions fromEnv = parse("--etcd-user", "ops").options(plain,
                Map.of(EtcdFlags.PASSWORD_ENV, "envpw")::get);
        assertThat(fromEnv.password()).isEqualTo("envpw");

        assertThatThrownBy(() -> parse("--etcd-user", "ops").options(plain, Map.<String, String>of()::get))
                .hasMessage("--etcd-user: no password: give NAME:PASSWORD or set FULCRUM_ETCD_PASSWORD (got: ops)");
        assertThat(parse().options(plain, k -> "x").user()).isNull();
    }

    @Test
    void tlsFilesMustExistGoTogetherAndGoWithEtcds() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
        EtcdAddress tls = EtcdAddress.parse("etcds://127.0.0.1:2379/p");
        assertThat(parse("--etcd-cacert", ca.toString()).options(tls, k -> null).ca()).isEqualTo(ca);
        assertThatThrownBy(() -> parse("--etcd-cacert", dir.resolve("none.pem").toString()).options(tls, k -> null))
                .hasMessage("--etcd-cacert: no such readable file (got: " + dir.resolve("none.pem") + ")");
        assertThatThrownBy(() -> parse("--etcd-cert", ca.toString()).options(tls, k -> null))
                .hasMessage("--etcd-cert: goes with --etcd-key (got: " + ca + ")");
        assertThatThrownBy(() -> parse("--etcd-cacert", ca.toString())
                .options(EtcdAddress.parse("etcd://127.0.0.1:2379/p"), k -> null))
                .hasMessageStartingWith("--etcd-cacert: TLS files go with an etcds:// address (got: ");
    }

    @Test
    void theInstanceIdIsCheckedAndDefaultsToHostAndPid() {
        assertThat(parse("--instance-id", "edge-1.eu_west").instanceId()).isEqualTo("edge-1.eu_west");
        assertThatThrownBy(() -> parse("--instance-id", "a/b").instanceId())
                .hasMessage("--instance-id: must be 1 to 64 of A-Z a-z 0-9 . _ - (got: a/b)");
        assertThatThrownBy(() -> parse("--instance-id", "x".repeat(65)).instanceId())
                .hasMessageStartingWith("--instance-id: must be 1 to 64");
        assertThat(EtcdFlags.defaultInstanceId("web 1:local", 4711)).isEqualTo("web-1-local-4711");
        assertThat(EtcdFlags.defaultInstanceId("h".repeat(80), 4711)).hasSize(64).endsWith("h-4711");
        assertThat(parse().instanceId()).matches("[A-Za-z0-9._-]{1,64}").endsWith("-" + ProcessHandle.current().pid());
        assertThat(parse().given()).isFalse();
        assertThat(parse("--instance-id", "x").given()).isTrue();
    }
}
