package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.FreePort;
import dev.fulcrum.testkit.ProcessOutput;
import dev.fulcrum.testkit.RecordingBackend;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --config etcd://...} on the real command line: {@code dev.fulcrum.Main --headless} in its own JVM against a
 * real etcd. It starts to its ready line and registers; an etcd that does not answer, a key that does not exist and
 * an invalid config each stop it with exit 2 and one clear line; killed with {@code kill -9}, it leaves
 * {@code PREFIX/instances/} when its lease expires; over TLS with a client certificate and a user it does the same.
 */
class EtcdConfigCommandTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=(http://127\\.0\\.0\\.1:\\d+) admin=(\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final Map<Process, Path> stderr = new java.util.HashMap<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    @AfterEach
    void stop() throws Exception {
        for (Process p : started) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
    }

    private <T extends AutoCloseable> T own(T c) {
        owned.add(c);
        return c;
    }

    /** {@code dev.fulcrum.Main args} in a JVM of its own, its standard error into a file; {@code env} added. */
    private Process main(Map<String, String> env, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Djava.awt.headless=true", "dev.fulcrum.Main"));
        command.addAll(List.of(args));
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(err.toFile());
        pb.environment().remove("FULCRUM_ETCD_PASSWORD");
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        stderr.put(p, err);
        return p;
    }

    /** Runs to its end: exit code and standard error. */
    private Map.Entry<Integer, String> run(String... args) throws Exception {
        Process p = main(Map.of(), args);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits").isTrue();
        String err = Files.readString(stderr.get(p));
        return Map.entry(p.exitValue(), err);
    }

    /** Waits for the ready line on standard output; returns proxy and admin URLs. */
    private String[] ready(Process p) throws Exception {
        String line = ProcessOutput.firstLine(p, Duration.ofSeconds(60));
        assertThat(line).as("ready line; standard error: %s", Files.readString(stderr.get(p))).isNotNull();
        Matcher m = READY.matcher(line);
        assertThat(m.find()).as(line).isTrue();
        return new String[] {m.group(1), m.group(2)};
    }

    private String config(RecordingBackend b) {
        return """
                {"proxy": {"host": "127.0.0.1", "port": 18080}, "admin": {"host": "127.0.0.1", "port": 18081},
                 "backends": [{"id": "b1", "url": "%s"}], "healthCheck": {"enabled": false}}
                """.formatted(b.url());
    }

    /**
     * {@code PREFIX/config} put in {@code etcd}, sending to a recording backend, and {@code --headless --config
     * etcd://.../PREFIX --proxy-port 0 --admin-port 0 --instance-id id} started on it.
     */
    private Process headlessOn(EtcdCluster etcd, String prefix, String id) throws Exception {
        RecordingBackend b = own(new RecordingBackend("b1"));
        etcd.etcdctl("put", prefix + "/config", config(b));
        return main(Map.of(), "--headless", "--config", address(etcd, prefix), "--proxy-port", "0",
                "--admin-port", "0", "--instance-id", id);
    }

    private static String address(EtcdCluster etcd, String prefix) {
        URI e = etcd.endpoints().get(0);
        return (e.getScheme().equals("https") ? "etcds" : "etcd") + "://" + e.getHost() + ":" + e.getPort() + prefix;
    }

    private JsonNode get(String url) throws Exception {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private int proxied(String proxy) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(proxy + "/x")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void headlessOnAConfigInEtcdStartsToItsReadyLineAndRegisters() throws Exception {
        EtcdCluster etcd = own(EtcdCluster.single());
        Process p = headlessOn(etcd, "/cli", "cli-1");
        String[] urls = ready(p);
        assertThat(proxied(urls[0])).isEqualTo(200);
        JsonNode source = get(urls[1] + "/api/state").get("configSource");
        assertThat(source.get("type").asText()).isEqualTo("etcd");
        assertThat(source.get("url").asText()).isEqualTo(address(etcd, "/cli"));
        assertThat(source.get("key").asText()).isEqualTo("/cli/config");
        assertThat(source.get("instance").asText()).isEqualTo("cli-1");
        assertThat(source.get("state").asText()).isEqualTo("ok");
        await().atMost(Duration.ofSeconds(10)).until(() -> etcd.etcdctl("get", "/cli/instances/cli-1").contains(urls[1]));
    }

    @Test
    void anEtcdThatDoesNotAnswerStopsTheStartWithExit2NamingTheEndpoint() throws Exception {
        int port = FreePort.loopback();
        Map.Entry<Integer, String> r = run("--headless", "--config", "etcd://127.0.0.1:" + port + "/gone");
        assertThat(r.getKey()).isEqualTo(2);
        assertThat(r.getValue()).contains("--config etcd://127.0.0.1:" + port + "/gone: cannot read /gone/config: ")
                .contains("http://127.0.0.1:" + port).doesNotContain("fulcrum ready");
    }

    @Test
    void aMissingKeyOrAnInvalidConfigStopsTheStartWithExit2() throws Exception {
        EtcdCluster etcd = own(EtcdCluster.single());
        Map.Entry<Integer, String> missing = run("--headless", "--config", address(etcd, "/none"));
        assertThat(missing.getKey()).isEqualTo(2);
        assertThat(missing.getValue()).contains("no config at key /none/config");

        etcd.etcdctl("put", "/bad/config", "{\"backends\": [{\"id\": \"b1\", \"url\": \"http://127.0.0.1:1\","
                + " \"weight\": 5000}]}");
        Map.Entry<Integer, String> invalid = run("--headless", "--config", address(etcd, "/bad"));
        assertThat(invalid.getKey()).isEqualTo(2);
        assertThat(invalid.getValue()).contains("config error: backends[0].weight: must be between 0 and 1000 (got: 5000)");

        Map.Entry<Integer, String> badAddress = run("--headless", "--config", "etcd://127.0.0.1/p");
        assertThat(badAddress.getKey()).isEqualTo(2);
        assertThat(badAddress.getValue()).startsWith("fulcrum: --config: ");

        Map.Entry<Integer, String> badId = run("--headless", "--config", address(etcd, "/bad"), "--instance-id", "a b");
        assertThat(badId.getKey()).isEqualTo(2);
        assertThat(badId.getValue()).contains("--instance-id: must be 1 to 64 of A-Z a-z 0-9 . _ - (got: a b)");

        Map.Entry<Integer, String> flagsAlone = run("--headless", "--etcd-user", "root:x");
        assertThat(flagsAlone.getKey()).isEqualTo(2);
        assertThat(flagsAlone.getValue()).contains("go with --config etcd://... or --attach etcd://...");
    }

    @Test
    void anInstanceKilledWithSigkillLeavesTheInstancesWhenItsLeaseExpires() throws Exception {
        EtcdCluster etcd = own(EtcdCluster.single());
        Process p = headlessOn(etcd, "/k9", "victim");
        ready(p);
        await().atMost(Duration.ofSeconds(10)).until(() -> etcd.etcdctl("get", "--keys-only", "--prefix",
                "/k9/instances/").contains("/k9/instances/victim"));

        long killed = System.nanoTime();
        p.destroyForcibly(); // SIGKILL: no shutdown hook, no revoke
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(etcd.etcdctl("get", "--keys-only", "--prefix", "/k9/instances/")).contains("/k9/instances/victim");
        await().atMost(Duration.ofSeconds(EtcdConfigSource.LEASE_TTL_SECONDS + 10)).pollInterval(Duration.ofMillis(200))
                .until(() -> !etcd.etcdctl("get", "--keys-only", "--prefix", "/k9/instances/").contains("victim"));
        System.out.printf("kill -9 to leaving PREFIX/instances/: %.1f s%n", (System.nanoTime() - killed) / 1e9);
    }

    @Test
    void overTlsWithAClientCertificateAndAUserItStartsAndFollows() throws Exception {
        EtcdCluster etcd = own(EtcdCluster.secure());
        RecordingBackend b = own(new RecordingBackend("b1"));
        etcd.etcdctl("put", "/tls/config", config(b));

        Process p = main(Map.of("FULCRUM_ETCD_PASSWORD", etcd.password()), "--headless", "--config",
                address(etcd, "/tls"), "--etcd-cacert", etcd.ca().toString(), "--etcd-cert",
                etcd.clientCert().toString(), "--etcd-key", etcd.clientKey().toString(), "--etcd-user", etcd.user(),
                "--proxy-port", "0", "--admin-port", "0", "--instance-id", "secure-1");
        String[] urls = ready(p);
        assertThat(get(urls[1] + "/api/state").get("configSource").get("url").asText()).startsWith("etcds://");
        await().atMost(Duration.ofSeconds(10)).until(() -> etcd.etcdctl("get", "/tls/instances/secure-1")
                .contains(urls[0]));

        etcd.etcdctl("put", "/tls/config", config(b).replace("\"url\"", "\"weight\": 9, \"url\""));
        await().atMost(Duration.ofSeconds(10)).until(() -> get(urls[1] + "/api/state").get("backends").get(0)
                .get("weight").asInt() == 9);

        Map.Entry<Integer, String> wrongPassword = run("--headless", "--config", address(etcd, "/tls"),
                "--etcd-cacert", etcd.ca().toString(), "--etcd-cert", etcd.clientCert().toString(), "--etcd-key",
                etcd.clientKey().toString(), "--etcd-user", "root:wrong");
        assertThat(wrongPassword.getKey()).isEqualTo(2);
        assertThat(wrongPassword.getValue()).contains("cannot read /tls/config").contains(etcd.endpoints().get(0).toString());
    }
}
