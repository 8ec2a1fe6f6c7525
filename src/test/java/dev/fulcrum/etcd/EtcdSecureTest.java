package dev.fulcrum.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.EtcdCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client against etcd on https with {@code --client-cert-auth} and auth enabled (user root). */
@Timeout(90)
class EtcdSecureTest {
    private static EtcdCluster etcd;

    @BeforeAll
    static void start() {
        etcd = EtcdCluster.secure();
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void aClientWithTheCaTheCertificateAndTheUserReadsWritesAndWatches() {
        try (EtcdClient client = new EtcdClient(etcd.options())) {
            long rev = client.put("/secure/a", "1");
            assertThat(client.get("/secure/a").first().modRevision()).isEqualTo(rev);
            assertThat(client.putIf("/secure/a", "2", rev).succeeded()).isTrue();
            List<String> told = new CopyOnWriteArrayList<>();
            try (EtcdMirror mirror = EtcdMirror.start(client, "/secure/", new EtcdMirror.Listener() {
                @Override
                public void changed(Map<String, KeyValue> keys, long revision) {
                    told.add(keys.keySet().toString());
                }
            })) {
                await().atMost(Duration.ofSeconds(5)).until(() -> told.contains("[/secure/a]"));
                client.put("/secure/b", "watched");
                await().atMost(Duration.ofSeconds(5)).until(() -> told.contains("[/secure/a, /secure/b]"));
                assertThat(mirror.reachable()).isTrue();
            }
            assertThat(etcd.etcdctl("get", "/secure/b", "--print-value-only")).isEqualTo("watched");
        }
    }

    @Test
    void anExpiredTokenIsReplacedOnceWithoutTheCallerSeeingIt() {
        try (EtcdClient client = new EtcdClient(etcd.options())) {
            client.put("/token/a", "1");
            // Turning auth off and on again drops every token etcd gave, as its --auth-token-ttl does.
            etcd.etcdctl("auth", "disable");
            etcd.etcdctl("auth", "enable");
            assertThat(client.get("/token/a").first().value()).isEqualTo("1");

            etcd.etcdctl("auth", "disable");
            etcd.etcdctl("auth", "enable");
            java.util.concurrent.atomic.AtomicBoolean opened = new java.util.concurrent.atomic.AtomicBoolean();
            client.watch("/token/", 1, new EtcdClient.WatchListener() {
                @Override
                public void opened(String endpoint) {
                    opened.set(true);
                }

                @Override
                public void events(long revision, List<EtcdClient.Event> events) {
                }

                @Override
                public void compacted(long compactRevision) {
                }
            }, opened::get);
            assertThat(opened).as("the watch opened with a new token").isTrue();
        }
    }

    @Test
    void aWrongPasswordIsEtcdsRefusalNamingTheEndpointAndTheUser() {
        EtcdOptions o = etcd.options();
        try (EtcdClient client = new EtcdClient(new EtcdOptions(o.endpoints(), o.ca(), o.cert(), o.key(), "root",
                "not-the-password"))) {
            assertThatThrownBy(() -> client.get("/k"))
                    .isInstanceOf(EtcdException.class)
                    .hasMessage("etcd " + etcd.endpoints().get(0) + ": user 'root': etcdserver: authentication"
                            + " failed, invalid user ID or password")
                    .matches(e -> !((EtcdException) e).unreachable());
        }
    }

    @Test
    void noUserIsDeniedByEtcdNamingTheEndpoint() {
        EtcdOptions o = etcd.options();
        try (EtcdClient client = new EtcdClient(new EtcdOptions(o.endpoints(), o.ca(), o.cert(), o.key(), null, null))) {
            assertThatThrownBy(() -> client.get("/k"))
                    .isInstanceOf(EtcdException.class)
                    .hasMessage("etcd " + etcd.endpoints().get(0) + ": etcdserver: permission denied");
            assertThatThrownBy(() -> client.watch("/k", 1, new EtcdClient.WatchListener() {
                @Override
                public void events(long revision, List<EtcdClient.Event> events) {
                }

                @Override
                public void compacted(long compactRevision) {
                }
            }, () -> false)).hasMessage("etcd " + etcd.endpoints().get(0) + ": watch refused: etcdserver: permission"
                    + " denied");
        }
    }

    /**
     * Every time, on a new connection: TLS 1.3 refuses the missing certificate after the handshake, and the alert may
     * reach the client or be lost to the reset of a connection whose request the member did not read.
     */
    @Test
    void noClientCertificateIsATlsRefusalNamingTheEndpoint() {
        EtcdOptions o = etcd.options();
        for (int i = 0; i < 20; i++) {
            try (EtcdClient client = new EtcdClient(new EtcdOptions(o.endpoints(), o.ca(), null, null, o.user(),
                    o.password()))) {
                assertThatThrownBy(() -> client.get("/k"))
                        .isInstanceOf(EtcdException.class)
                        .hasMessageStartingWith("etcd " + etcd.endpoints().get(0) + ": TLS: ")
                        .hasMessageContaining("certificate")
                        .matches(e -> !((EtcdException) e).unreachable(), "a refusal, not an outage");
            }
        }
    }

    @Test
    void withoutTheCaTheServerIsNotTrusted() {
        EtcdOptions o = etcd.options();
        try (EtcdClient client = new EtcdClient(new EtcdOptions(o.endpoints(), null, o.cert(), o.key(), o.user(),
                o.password()))) {
            assertThatThrownBy(() -> client.get("/k"))
                    .isInstanceOf(EtcdException.class)
                    .hasMessageStartingWith("etcd " + etcd.endpoints().get(0) + ": TLS: ")
                    .hasMessageContaining("certification path");
        }
    }

    @Test
    void filesThatCannotBeReadAreErrorsNamingTheField() {
        EtcdOptions o = etcd.options();
        Path missing = etcd.dir().resolve("no-such-ca.pem");
        assertThatThrownBy(() -> new EtcdClient(new EtcdOptions(o.endpoints(), missing, o.cert(), o.key(), null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ca: no such file (got: " + missing + ")");
        assertThatThrownBy(() -> new EtcdClient(new EtcdOptions(o.endpoints(), o.ca(), o.ca(), o.ca(), null, null)))
                .hasMessage("key: no unencrypted private key in the file (got: " + o.ca() + ")");
        assertThatThrownBy(() -> new EtcdClient(new EtcdOptions(o.endpoints(), o.ca(), o.cert(), null, null, null)))
                .hasMessage("key: a client certificate needs its private key (got: cert " + o.cert() + ", no key)");
        assertThatThrownBy(() -> new EtcdClient(new EtcdOptions(o.endpoints(), o.ca(), null, null, "root", null)))
                .hasMessage("password: etcd user 'root' needs a password (got: none)");
    }
}
