package dev.fulcrum.app;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.HealthCheckConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.ProxyConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.demo.DemoFleet;
import dev.fulcrum.demo.DemoSpec;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.health.HealthCheckSpec;
import dev.fulcrum.proxy.ProxySettings;
import dev.fulcrum.proxy.TlsContexts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a config becomes what each component is started or updated with: the proxy's settings and sticky key, the
 * health checker's spec, the demo backends' specs, a pool's members as engine specs, the discovery sources by
 * pool. {@link FulcrumApp} uses it at start, {@link ConfigReload} and {@link ConfigChanges} on every later config,
 * so both read a config the same way.
 */
final class ConfigSpecs {
    private ConfigSpecs() {
    }

    static ProxySettings proxySettings(FulcrumConfig c) {
        return new ProxySettings(c.proxy().host(), c.proxy().port(), c.proxy().maxHeaderBytes(),
                c.proxy().drainTimeoutMs(), c.proxy().accessLog(), c.proxy().preserveHost(), c.retries().maxRetries(),
                c.retries().retryNonIdempotent(), c.timeouts().connectMs(), c.timeouts().readMs(),
                c.timeouts().idleMs(), c.timeouts().requestHeaderMs(), c.stickySession().enabled(),
                c.stickySession().cookie(), c.stickySession().ttlSeconds(), stickySecret(c),
                c.proxy().tls().enabled() ? new ProxySettings.Tls(c.proxy().tls().port(), c.proxy().tls().certificate(),
                        c.proxy().tls().privateKey(), TlsContexts.defaultDir(), c.proxy().tls().names()) : null,
                c.proxy().ioThreads(), c.proxy().recentRequests(), c.proxy().logDecisions(), c.proxy().tls().http2(),
                ProxyConfig.FULCRUM.equals(c.proxy().http1Server()));
    }

    /**
     * The sticky-cookie key: a digest of {@code stickySession.secret} (when set), the cookie name and every
     * backend's id and URL, so any instance started with the same config honours the same cookies. Without a
     * secret nothing in it is secret: cookies are opaque but can be forged by whoever guesses the backends.
     */
    static byte[] stickySecret(FulcrumConfig c) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(("fulcrum-sticky|" + c.stickySession().cookie()).getBytes(StandardCharsets.UTF_8));
            String secret = c.stickySession().secret();
            if (secret != null) {
                d.update(("|secret|" + secret.length() + "|" + secret).getBytes(StandardCharsets.UTF_8));
            }
            for (Map.Entry<String, PoolConfig> e : c.allPools().entrySet()) {
                d.update(("|" + e.getKey()).getBytes(StandardCharsets.UTF_8));
                for (BackendConfig b : e.getValue().backends()) {
                    d.update(("|" + b.id() + "=" + b.url()).getBytes(StandardCharsets.UTF_8));
                }
                for (DemoBackendConfig b : e.getValue().demoBackends()) {
                    d.update(("|" + b.id() + "=demo").getBytes(StandardCharsets.UTF_8));
                }
            }
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static HealthCheckSpec healthSpec(HealthCheckConfig h) {
        return new HealthCheckSpec(h.enabled(), h.path(), h.intervalMs(), h.timeoutMs(), h.expectedStatus());
    }

    static Map<String, List<DiscoveryConfig>> discoveryByPool(FulcrumConfig c) {
        Map<String, List<DiscoveryConfig>> out = new LinkedHashMap<>();
        c.allPools().forEach((name, p) -> out.put(name, p.discovery()));
        return out;
    }

    static DemoSpec demoSpec(DemoBackendConfig d) {
        return new DemoSpec(d.id(), d.port(), d.weight(), d.latencyMs(), d.errorRate());
    }

    /** Every demo backend of every pool, as the fleet starts them. */
    static List<DemoSpec> demoSpecs(FulcrumConfig c) {
        List<DemoSpec> out = new ArrayList<>();
        for (PoolConfig p : c.allPools().values()) {
            for (DemoBackendConfig d : p.demoBackends()) {
                out.add(demoSpec(d));
            }
        }
        return out;
    }

    /** The port each running demo backend listens on, by id, in the fleet's order. */
    static Map<String, Integer> demoPorts(DemoFleet fleet) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (DemoBackend d : fleet.all()) {
            out.put(d.id(), d.port());
        }
        return out;
    }

    /**
     * The engine specs of a pool: its static backends, and its demo backends at the ports they listen on
     * ({@code demoPorts}; one not running keeps its configured port).
     */
    static List<BackendSpec> backendSpecs(PoolConfig p, Map<String, Integer> demoPorts) {
        List<BackendSpec> out = new ArrayList<>();
        for (BackendConfig b : p.backends()) {
            out.add(b.toSpec());
        }
        for (DemoBackendConfig d : p.demoBackends()) {
            Integer port = demoPorts.get(d.id());
            out.add(port != null ? d.toSpec(port) : d.toSpec());
        }
        return out;
    }
}
