package dev.fulcrum.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class EtcdAddressTest {
    @Test
    void membersAndPrefixAreReadAndWrittenBack() {
        EtcdAddress a = EtcdAddress.parse("etcd://127.0.0.1:2379,127.0.0.1:22379/fulcrum/prod/");
        assertThat(a.endpoints()).containsExactly(URI.create("http://127.0.0.1:2379"),
                URI.create("http://127.0.0.1:22379"));
        assertThat(a.prefix()).isEqualTo("/fulcrum/prod");
        assertThat(a.configKey()).isEqualTo("/fulcrum/prod/config");
        assertThat(a.instancesPrefix()).isEqualTo("/fulcrum/prod/instances/");
        assertThat(a.drainedPrefix()).isEqualTo("/fulcrum/prod/drained/");
        assertThat(a).hasToString("etcd://127.0.0.1:2379,127.0.0.1:22379/fulcrum/prod");
        assertThat(EtcdAddress.parse(a.toString())).isEqualTo(a);
    }

    @Test
    void etcdsMeansHttpsAndNamesAndIpv6AreHosts() {
        EtcdAddress a = EtcdAddress.parse("ETCDS://etcd-1.example.test:2379,[::1]:2379/p");
        assertThat(a.endpoints()).containsExactly(URI.create("https://etcd-1.example.test:2379"),
                URI.create("https://[::1]:2379"));
        assertThat(a.prefix()).isEqualTo("/p");
        assertThat(a).hasToString("etcds://etcd-1.example.test:2379,[::1]:2379/p");
        assertThat(EtcdAddress.is("Etcd://x")).isTrue();
        assertThat(EtcdAddress.is("http://x")).isFalse();
        assertThat(EtcdAddress.is(null)).isFalse();
    }

    @Test
    void aBadFormNamesThePartThatIsWrong() {
        for (String[] bad : List.of(
                new String[] {"etcd://h:x/p", "'h:x' is not HOST:PORT"},
                new String[] {"etcd://h/p", "'h' is not HOST:PORT"},
                new String[] {"etcd://h:2379", "no /PREFIX after the members"},
                new String[] {"etcd://h:2379/", "the PREFIX '/' is empty or starts with //"},
                new String[] {"etcd://h:2379///", "the PREFIX '///' is empty or starts with //"},
                new String[] {"etcd:///p", "no HOST:PORT before the PREFIX"},
                new String[] {"etcd://h:2379,/p", "'' is not HOST:PORT"},
                new String[] {"etcd://h:0/p", "'h:0': the port must be 1..65535"},
                new String[] {"etcd://h:65536/p", "'h:65536': the port must be 1..65535"},
                new String[] {"etcd://h:1/a b", "the PREFIX has a space or a control character"},
                new String[] {"http://h:2379/p", "it must start with etcd:// or etcds://"})) {
            assertThatThrownBy(() -> EtcdAddress.parse(bad[0])).as(bad[0])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("expected etcd://HOST:PORT[,HOST:PORT...]/PREFIX (got: " + bad[0] + "): " + bad[1]);
        }
    }
}
