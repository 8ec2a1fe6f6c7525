package dev.fulcrum.app;

import dev.fulcrum.config.DemoBackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;

/**
 * The window's ports when the default ones are taken (another dev server, a Docker container on 8080): the next free
 * port after each, as Vite does, rather than a window that says "could not start". Only for a port nobody chose: the
 * embedded default config's, with no {@code --proxy-port} or {@code --admin-port} for it, and its demo backends'
 * (a second window beside the first finds 9101-9103 taken by the first one's demo backends). A port the command line
 * names and every port of a {@code --config} file (written or left at its default) stay strict, and so does headless
 * mode: a script or a balancer in front expects the port it configured. Applied over every config the window's engine takes, after the command line's overrides, so a reload
 * keeps the ports it listens on.
 *
 * <p>Example: 8080 taken, 8081 free: the proxy goes to 8082 (8081 is the admin API's), the admin API stays on 8081,
 * and {@link #note()} is {@code "port 8080 was taken: proxy on 8082"}. A demo backend's taken port moves the same
 * way, past the ports of the listeners and of the other demo backends: 9101 taken, demo-a goes to 9104. A later
 * config (a reload, a lesson) has a demo backend on a port that moved at start moved alike, so a reload keeps the
 * demo backends where they listen.
 */
public final class FreePorts implements UnaryOperator<FulcrumConfig> {
    /** How far past a taken port to look for a free one. */
    static final int SEARCH = 100;
    /** Where demo backends listen (DemoBackend). */
    private static final String DEMO_HOST = "127.0.0.1";

    private final UnaryOperator<FulcrumConfig> overrides;
    /** The port chosen instead of a taken one, or -1 to keep the config's. */
    private final int proxyPort;
    private final int adminPort;
    /** A demo backend's port taken at start, to the free one it moved to. */
    private final Map<Integer, Integer> demoPorts;
    private final String note;

    private FreePorts(UnaryOperator<FulcrumConfig> overrides, int proxyPort, int adminPort,
                      Map<Integer, Integer> demoPorts, String note) {
        this.overrides = overrides;
        this.proxyPort = proxyPort;
        this.adminPort = adminPort;
        this.demoPorts = Map.copyOf(demoPorts);
        this.note = note;
    }

    /**
     * The ports for {@code cfg} (the command line's overrides already in it): for the proxy when {@code proxyOpen},
     * for the admin API when {@code adminOpen}, each moved on when {@code free(host, port)} says it is taken.
     */
    static FreePorts choose(FulcrumConfig cfg, boolean proxyOpen, boolean adminOpen,
                            UnaryOperator<FulcrumConfig> overrides, BiPredicate<String, Integer> free) {
        int proxy = cfg.proxy().port();
        int admin = cfg.admin().port();
        Set<Integer> others = new HashSet<>();
        if (cfg.proxy().tls().enabled()) {
            others.add(cfg.proxy().tls().port());
        }
        List<String> said = new ArrayList<>();
        int newProxy = -1;
        if (proxyOpen && proxy > 0 && !free.test(cfg.proxy().host(), proxy)) {
            newProxy = next(cfg.proxy().host(), proxy, union(others, admin), free);
            if (newProxy > 0) {
                said.add("port " + proxy + " was taken: proxy on " + newProxy);
                proxy = newProxy;
            }
        }
        int newAdmin = -1;
        if (adminOpen && admin > 0 && (admin == proxy || !free.test(cfg.admin().host(), admin))) {
            newAdmin = next(cfg.admin().host(), admin, union(others, proxy), free);
            if (newAdmin > 0) {
                said.add("port " + admin + " was taken: admin API on " + newAdmin);
            }
        }
        Set<Integer> used = union(union(others, proxy), newAdmin > 0 ? newAdmin : admin);
        cfg.demoBackends().forEach(d -> used.add(d.port()));
        Map<Integer, Integer> demo = new LinkedHashMap<>();
        for (DemoBackendConfig d : cfg.demoBackends()) {
            if (d.port() > 0 && !free.test(DEMO_HOST, d.port())) {
                int p = next(DEMO_HOST, d.port(), used, free);
                if (p > 0) {
                    demo.put(d.port(), p);
                    used.add(p);
                    said.add("port " + d.port() + " was taken: " + d.id() + " on " + p);
                }
            }
        }
        return new FreePorts(overrides, newProxy, newAdmin, demo, said.isEmpty() ? null : String.join("; ", said));
    }


    /** {@link #choose} with a port free when a socket can be bound to it on its host now. */
    static FreePorts choose(FulcrumConfig cfg, boolean proxyOpen, boolean adminOpen,
                            UnaryOperator<FulcrumConfig> overrides) {
        return choose(cfg, proxyOpen, adminOpen, overrides, FreePorts::bindable);
    }

    private static Set<Integer> union(Set<Integer> s, int port) {
        Set<Integer> u = new HashSet<>(s);
        u.add(port);
        return u;
    }

    /** The first free port after {@code port} that is not {@code avoid}'s; -1 when none is within {@link #SEARCH}. */
    private static int next(String host, int port, Set<Integer> avoid, BiPredicate<String, Integer> free) {
        for (int p = port + 1; p <= Math.min(65_535, port + SEARCH); p++) {
            if (!avoid.contains(p) && free.test(host, p)) {
                return p;
            }
        }
        return -1; // none: the config's port stays, and its start fails as it would have
    }

    /** Binds and closes at once, with the address reuse the proxy's and the admin API's listeners use. */
    static boolean bindable(String host, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(host, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public FulcrumConfig apply(FulcrumConfig cfg) {
        FulcrumConfig c = overrides.apply(cfg);
        if (proxyPort > 0) {
            c = c.withProxyPort(proxyPort);
        }
        if (adminPort > 0) {
            c = c.withAdminPort(adminPort);
        }
        if (!demoPorts.isEmpty() && c.demoBackends().stream().anyMatch(d -> demoPorts.containsKey(d.port()))) {
            List<DemoBackendConfig> moved = c.demoBackends().stream()
                    .map(d -> demoPorts.containsKey(d.port()) ? d.withPort(demoPorts.get(d.port())) : d)
                    .toList();
            PoolConfig pool = c.defaultPool();
            c = c.withDefaultPool(new PoolConfig(pool.strategy(), pool.backends(), moved, pool.discovery(),
                    pool.fallback(), pool.pluginBudgetMs()));
        }
        return c;
    }

    /** What moved, for the log and the window's title; null when every port is the config's. */
    public String note() {
        return note;
    }
}
