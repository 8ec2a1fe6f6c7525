package dev.fulcrum.lesson;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.ProxyConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Fulcrum started for one lesson run from the lesson's config, on free ports (the proxy, the admin API, HTTPS and
 * every demo backend), so lessons can be checked side by side with anything else running on the machine; closed with
 * the run.
 */
final class FreshEngine implements LessonEngine {
    private static final Path DEV_NULL = Path.of("/dev/null");
    private final EmbeddedFulcrum app;
    private final EngineClient client;
    private final URI proxy;

    private FreshEngine(EmbeddedFulcrum app) {
        this.app = app;
        this.client = app.client();
        this.proxy = URI.create(client.state().proxy());
    }

    static FreshEngine start(FulcrumConfig config) {
        return new FreshEngine(EmbeddedFulcrum.start(onFreePorts(config), null, c -> c));
    }

    /**
     * {@code config} with every port it listens on set to 0 (a free port), and the proxy's access log off unless the
     * lesson names a file: a check's output is its lines, not thousands of request lines.
     */
    static FulcrumConfig onFreePorts(FulcrumConfig config) {
        FulcrumConfig c = config.withProxyPort(0).withAdminPort(0).withTlsPort(0);
        ProxyConfig p = c.proxy();
        if (p.accessLog() == null && Files.exists(DEV_NULL)) {
            p = new ProxyConfig(p.host(), p.port(), p.maxHeaderBytes(), p.drainTimeoutMs(), DEV_NULL.toString(),
                    p.preserveHost(), p.tls(), p.ioThreads());
            c = LessonConfigs.withRestartParts(c, p, c.admin(), c.retries(), c.timeouts(), c.stickySession());
        }
        return LessonConfigs.demoPorts(c, d -> 0);
    }

    @Override
    public EngineClient client() {
        return client;
    }

    @Override
    public URI proxy() {
        return proxy;
    }

    @Override
    public void close() {
        client.close();
        app.close();
    }
}
