package dev.fulcrum.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dns-srv and etcd discovery entries (docs/REFERENCE.md §2.5) read and checked as the config reads a dns or file
 * entry: each problem named by its JSON path and value, a field the type does not use refused; a written config
 * reads back equal.
 */
class DiscoveryConfigTest {
    private static final String BACKEND = "\"backends\": [ { \"id\": \"a\", \"url\": \"http://127.0.0.1:9001\" } ]";

    private static FulcrumConfig load(String discovery) {
        return ConfigLoader.parse("{ " + BACKEND + ", \"discovery\": [ " + discovery + " ] }");
    }

    private static List<String> errors(String discovery) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> load(discovery));
        assertThat(e).as("should be refused: %s", discovery).isNotNull();
        return e.lines();
    }

    @Test
    void anEtcdSourceIsReadWithItsTlsAndUser(@TempDir Path dir) throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
        Path cert = Files.writeString(dir.resolve("c.pem"), "x");
        Path key = Files.writeString(dir.resolve("k.pem"), "x");

        DiscoveryConfig d = load("{\"type\": \"etcd\", \"endpoints\": [\"https://127.0.0.1:2379\", "
                + "\"https://10.0.0.2:2379\"], \"prefix\": \"/services/api/\", \"tls\": {\"ca\": \"" + ca
                + "\", \"cert\": \"" + cert + "\", \"key\": \"" + key + "\"}, \"user\": \"root\", \"password\": \"pw\"}")
                .defaultPool().discovery().get(0);

        assertThat(d).isEqualTo(DiscoveryConfig.etcd(List.of("https://127.0.0.1:2379", "https://10.0.0.2:2379"),
                "/services/api/", new DiscoveryTlsConfig(ca.toString(), cert.toString(), key.toString()), "root", "pw"));
        assertThat(d.label()).isEqualTo("etcd:/services/api/");
        assertThat(d.toString()).doesNotContain("pw");
    }

    @Test
    void aDnsSrvSourceIsReadWithItsDefaults() {
        DiscoveryConfig d = load("{\"type\": \"dns-srv\", \"name\": \"_api._tcp.example.test\", \"server\": "
                + "\"127.0.0.1:5353\"}").defaultPool().discovery().get(0);

        assertThat(d).isEqualTo(DiscoveryConfig.dnsSrv("_api._tcp.example.test", 5000, "127.0.0.1:5353"));
        assertThat(d.label()).isEqualTo("dns-srv:_api._tcp.example.test");
    }

    @Test
    void everySourceTypeIsWrittenAndReadBackEqual(@TempDir Path dir) throws Exception {
        FulcrumConfig c = load("{\"type\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\"], \"prefix\": \"/s/\"}, "
                + "{\"type\": \"dns-srv\", \"name\": \"_api._tcp.example.test\"}, "
                + "{\"type\": \"dns\", \"name\": \"api.test\", \"port\": 80}, "
                + "{\"type\": \"file\", \"path\": \"" + dir.resolve("b.json") + "\"}");

        assertThat(ConfigLoader.parse(ConfigWriter.toJson(c))).isEqualTo(c);
    }

    @Test
    void etcdEndpointsPrefixTlsAndUserAreCheckedByPath(@TempDir Path dir) {
        assertThat(errors("{\"type\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\", \"127.0.0.1:2379\", "
                + "\"ftp://h:1\", \"http://h:2379/v3\"], \"prefix\": \"services/api/\"}")).containsExactly(
                "config error: discovery[0].endpoints[1]: must be http://HOST:PORT or https://HOST:PORT "
                        + "(got: 127.0.0.1:2379)",
                "config error: discovery[0].endpoints[2]: must be http://HOST:PORT or https://HOST:PORT (scheme http "
                        + "or https) (got: ftp://h:1)",
                "config error: discovery[0].endpoints[3]: must be http://HOST:PORT or https://HOST:PORT with no path, "
                        + "query or fragment (not even a trailing /) (got: http://h:2379/v3)",
                "config error: discovery[0].prefix: must start with / (got: services/api/)");
        assertThat(errors("{\"type\": \"etcd\", \"prefix\": \"/services/api\"}")).containsExactly(
                "config error: discovery[0].endpoints: at least one etcd endpoint is required, e.g. "
                        + "[\"http://127.0.0.1:2379\"] (got: [])",
                "config error: discovery[0].prefix: must end with / (each key under it is a backend, its id the rest "
                        + "of the key) (got: /services/api)");
        assertThat(errors("{\"type\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\"]}")).containsExactly(
                "config error: discovery[0].prefix: required for discovery type etcd, e.g. /services/api/ (got: null)");
        String missing = dir.resolve("nope.pem").toString();
        assertThat(errors("{\"type\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\"], \"prefix\": \"/p/\", "
                + "\"tls\": {\"cert\": \"" + missing + "\"}, \"user\": \"root\"}")).containsExactly(
                "config error: discovery[0].tls.key: required when discovery[0].tls.cert is set (got: null)",
                "config error: discovery[0].tls.cert: file does not exist: " + missing + " (got: " + missing + ")",
                "config error: discovery[0].tls: needs https:// endpoints (TLS is not used over http://) "
                        + "(got: http://127.0.0.1:2379)",
                "config error: discovery[0].password: required when discovery[0].user is set (got: null)");
        assertThat(errors("{\"type\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\"], \"prefix\": \"/p/\", "
                + "\"tls\": {\"ca\": 7}}")).containsExactly("config error: discovery[0].tls.ca: must be a string (got: 7)");
    }

    @Test
    void aFieldTheTypeDoesNotUseIsRefusedAndAnUnknownTypeListsTheTypes() {
        assertThat(errors("{\"type\": \"etcd\", \"endpoints\": [\"http://127.0.0.1:2379\"], \"prefix\": \"/p/\", "
                + "\"name\": \"api.test\", \"weight\": 3}")).containsExactly(
                "config error: discovery[0].name: not used by discovery type etcd (got: api.test)",
                "config error: discovery[0].weight: not used by discovery type etcd (each key's value gives its "
                        + "weight) (got: 3)");
        assertThat(errors("{\"type\": \"dns-srv\", \"name\": \"_a._tcp.x\", \"port\": 80, \"prefix\": \"/p/\"}"))
                .containsExactly(
                        "config error: discovery[0].port: not used by discovery type dns-srv (each SRV record names "
                                + "its port) (got: 80)",
                        "config error: discovery[0].prefix: not used by discovery type dns-srv (got: /p/)");
        assertThat(errors("{\"type\": \"dns-srv\"}")).containsExactly(
                "config error: discovery[0].name: must be a DNS name (got: null)");
        assertThat(errors("{\"type\": \"consul\"}")).containsExactly(
                "config error: discovery[0].type: unknown discovery type, one of dns, dns-srv, etcd, file (got: consul)");
    }

    @Test
    void anEtcdValueIsReadByTheBackendEntryRulesAndNamedByItsKey() {
        assertThat(ConfigLoader.parseBackend("a", "{\"url\": \"http://127.0.0.1:9001\", \"weight\": 3, "
                + "\"labels\": {\"zone\": \"b\"}, \"backup\": true, \"maxInFlight\": 5}", "/s/a"))
                .isEqualTo(new BackendConfig("a", "http://127.0.0.1:9001", 3, 5, true, java.util.Map.of("zone", "b")));
        assertThat(ConfigLoader.parseBackend("a", "{\"id\": \"a\", \"url\": \"http://127.0.0.1:9001\"}", "/s/a").id())
                .isEqualTo("a");

        assertThatThrownBy(() -> ConfigLoader.parseBackend("a", "{\"url\": \"http://127.0.0.1:9001\", \"weight\": "
                + "\"3\"}", "/s/a")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("/s/a.weight: must be an integer (got: \"3\")");
        assertThatThrownBy(() -> ConfigLoader.parseBackend("a", "{\"url\": \"http://127.0.0.1:9001\", \"colour\": 1}",
                "/s/a")).hasMessageContaining("/s/a.colour: unknown field");
        assertThatThrownBy(() -> ConfigLoader.parseBackend("a", "{\"id\": \"b\", \"url\": \"http://127.0.0.1:9001\"}",
                "/s/a")).hasMessageContaining("/s/a.id: must be left out or be the id the key gives, a (got: \"b\")");
        assertThatThrownBy(() -> ConfigLoader.parseBackend("a", "http://127.0.0.1:9001", "/s/a"))
                .hasMessageContaining("/s/a: invalid JSON");
        assertThatThrownBy(() -> ConfigLoader.parseBackend("a", "[1]", "/s/a"))
                .hasMessageContaining("/s/a: must be a JSON object {\"url\", \"weight\", \"labels\"} (got: [1])");
        assertThatThrownBy(() -> ConfigLoader.parseBackend("a", "{}", "/s/a"))
                .hasMessageContaining("/s/a.url: required");
    }
}
