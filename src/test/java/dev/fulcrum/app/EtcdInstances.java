package dev.fulcrum.app;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdClient;
import dev.fulcrum.etcd.KeyValue;
import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.RecordingBackend;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Fulcrums sharing one config in a real etcd, for the shared-config tests: two recording backends, the config at
 * {@code /fulcrum/test/config} with fixed ports that each instance overrides with free ones (as
 * {@code --proxy-port 0 --admin-port 0} does), each instance started as {@code --config etcd://...} starts it, its
 * {@code /api/state} read through the admin API and its events collected.
 */
final class EtcdInstances implements AutoCloseable {
    static final String PREFIX = "/fulcrum/test";
    static final ObjectMapper JSON = new ObjectMapper();

    final EtcdCluster etcd;
    final RecordingBackend b1 = new RecordingBackend("b1");
    final RecordingBackend b2 = new RecordingBackend("b2");
    /** The test's own client, for puts and reads the instances do not make. */
    final EtcdClient client;
    final List<Instance> instances = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** One running Fulcrum following the config, and every event its engine published. */
    record Instance(String id, FulcrumApp app, List<EngineEvent> events) {
        String proxy() {
            return app.proxy().url();
        }

        String admin() {
            return app.admin().url();
        }
    }

    EtcdInstances(EtcdCluster etcd) {
        this.etcd = etcd;
        this.client = new EtcdClient(etcd.options());
    }

    /** The address {@code --config} names: every member, then the prefix. */
    String address() {
        String scheme = etcd.endpoints().get(0).getScheme().equals("https") ? "etcds" : "etcd";
        return scheme + "://" + etcd.endpoints().stream().map(u -> u.getHost() + ":" + u.getPort())
                .collect(Collectors.joining(",")) + PREFIX;
    }

    /** A config file's JSON: b1 with {@code weight1}, b2 with weight 1, round-robin, no health checks or retries. */
    String config(int weight1) {
        return """
                {
                  "proxy": {"host": "127.0.0.1", "port": 18080},
                  "admin": {"host": "127.0.0.1", "port": 18081},
                  "strategy": {"type": "round-robin"},
                  "backends": [
                    {"id": "b1", "url": "%s", "weight": %d},
                    {"id": "b2", "url": "%s", "weight": 1}
                  ],
                  "healthCheck": {"enabled": false},
                  "retries": {"maxRetries": 0}
                }
                """.formatted(b1.url(), weight1, b2.url());
    }

    /** Writes the config; returns its mod revision. */
    long putConfig(String json) {
        return client.put(PREFIX + "/config", json);
    }

    /** Starts an instance as {@code --config etcd://... --proxy-port 0 --admin-port 0 --instance-id id} does. */
    Instance start(String id) {
        EtcdConfigSource.Start s = read(id);
        FulcrumApp app = FulcrumApp.start(s.apply(s.config()), null).overriding(s);
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        app.engine().subscribe(events::add);
        app.follow(s);
        Instance i = new Instance(id, app, events);
        instances.add(i);
        return i;
    }

    /** What {@code --config etcd://... --proxy-port 0 --admin-port 0 --instance-id id} reads before starting. */
    EtcdConfigSource.Start read(String id) {
        return EtcdConfigSource.read(EtcdAddress.parse(address()), new EtcdClient(etcd.options()), id,
                c -> c.withProxyPort(0).withAdminPort(0));
    }

    EngineState state(Instance i) {
        try (HttpEngineClient c = new HttpEngineClient(URI.create(i.admin()), null)) {
            return c.state();
        }
    }

    /** A GET through the instance's proxy: its status, or -1 when it failed without one. */
    int proxied(Instance i, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(i.proxy() + path)).timeout(Duration.ofSeconds(5))
                    .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The registrations under {@code PREFIX/instances/}, by id, each as JSON. */
    Map<String, JsonNode> registrations() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (KeyValue kv : client.getPrefix(PREFIX + "/instances/").kvs()) {
            try {
                out.put(kv.key().substring((PREFIX + "/instances/").length()), JSON.readTree(kv.value()));
            } catch (IOException e) {
                throw new AssertionError(kv.key() + " is not JSON: " + kv.value(), e);
            }
        }
        return out;
    }

    /** Waits until every instance's b1 has {@code weight} in its {@code /api/state}. */
    void awaitWeight(int weight) {
        await().atMost(Duration.ofSeconds(10)).until(() -> instances.stream()
                .allMatch(i -> state(i).backend("b1").weight() == weight));
    }

    @Override
    public void close() {
        for (Instance i : instances) {
            i.app().close();
        }
        client.close();
        b1.close();
        b2.close();
    }
}
