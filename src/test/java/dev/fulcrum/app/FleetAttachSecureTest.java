package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.admin.fleet.EtcdFleetClient;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.testkit.EtcdCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code --attach etcds://...} with the {@code --etcd-*} flags against an etcd that wants a client certificate and a
 * user ({@code --client-cert-auth}, auth enabled, certificates made by the test): the fleet's config is read; without
 * the user's password it is refused, naming why.
 */
@Timeout(120)
class FleetAttachSecureTest {
    @Test
    void theFlagsReachATlsEtcdWithAuth() {
        try (EtcdCluster etcd = EtcdCluster.secure(); EtcdClient admin = new EtcdClient(etcd.options())) {
            String config = """
                    {"backends": [{"id": "a", "url": "http://127.0.0.1:9"}]}""";
            long revision = admin.put("/secure/config", config);
            String url = "etcds://" + etcd.endpoints().get(0).getAuthority() + "/secure";

            try (EtcdFleetClient fleet = FleetAttach.connect(url, flags("--etcd-cacert", etcd.ca().toString(),
                    "--etcd-cert", etcd.clientCert().toString(), "--etcd-key", etcd.clientKey().toString(),
                    "--etcd-user", etcd.user() + ":" + etcd.password()))) {
                assertThat(fleet.configJson()).isEqualTo(config);
                assertThat(fleet.source().revision()).isEqualTo(revision);
                assertThat(fleet.state().backend("a").url()).isEqualTo("http://127.0.0.1:9");
            }
            assertThatThrownBy(() -> FleetAttach.connect(url, flags("--etcd-cacert", etcd.ca().toString(),
                    "--etcd-cert", etcd.clientCert().toString(), "--etcd-key", etcd.clientKey().toString(),
                    "--etcd-user", etcd.user() + ":wrong")).close())
                    .hasMessageContaining(etcd.endpoints().get(0).getAuthority());
        }
    }

    private static EtcdFlags flags(String... args) {
        EtcdFlags f = new EtcdFlags();
        new CommandLine(f).parseArgs(args);
        return f;
    }
}
