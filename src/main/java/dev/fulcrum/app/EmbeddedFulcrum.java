package dev.fulcrum.app;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RequestContext;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * A Fulcrum running in this process, as the desktop window sees it: the one type of {@code dev.fulcrum.app} that
 * {@code dev.fulcrum.ui} uses. The window starts one here, manages it through {@link #client()} as it would a remote
 * one, and takes from it what only an embedded engine has (live pools, demo spikes, the sticky cookie as the proxy
 * reads it) and its lifecycle (the ready line, operator signals, a graceful stop). {@link FulcrumApp} is the
 * implementation; the window never sees it.
 */
public interface EmbeddedFulcrum extends AutoCloseable {
    /**
     * Starts everything {@code config} describes and applies valid edits of {@code configFile} live (none when it is
     * null); blocks until the listeners are up.
     *
     * @param overrides what the command line sets over every config applied (--proxy-port, --admin-port)
     * @throws IllegalStateException naming the field when a listener cannot bind
     */
    static EmbeddedFulcrum start(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
        FulcrumApp app = FulcrumApp.start(config, configFile).overriding(overrides).watchConfigFile();
        if (overrides instanceof EtcdConfigSource.Start etcd) { // --config etcd://...: follow it from now on
            app.follow(etcd);
        }
        return app;
    }

    /** A new in-process client over this engine: the same operations the admin API offers. */
    EngineClient client();

    /** The docs/REFERENCE.md §1 ready line, with the actual ports. */
    String readyLine();

    /**
     * Which port the window's engine took instead of a taken default one ({@link FreePorts#note()}, also logged), for
     * the title bar; null when it listens where its config says.
     */
    String portNote();

    /** SIGHUP reads the config file again, SIGUSR1 reopens the access log (docs/REFERENCE.md §1). */
    void handleOperatorSignals();

    /** Refuses new requests, lets in-flight ones finish (up to drainTimeoutMs), closes everything. */
    boolean shutdownGracefully();

    /** The named pool, or null. */
    Pool pool(String name);

    /**
     * Arms a one-shot slow request on a demo backend.
     *
     * @throws IllegalArgumentException for an unknown id or a bad duration
     */
    void spike(String demoId, long ms);

    /** The backend a request's sticky cookie names in {@code pool}, as the proxy reads it, or null. */
    String stickyBackend(Pool pool, RequestContext request);

    /** The HTTPS address, {@code https://HOST:PORT} as in the ready line, or null when TLS is off. */
    String httpsUrl();

    /**
     * What {@code --trust} does (docs/REFERENCE.md §5) for this engine's {@code proxy.tls.names}, each step's line
     * handed to {@code line} as it is printed; blocks on files and {@code certutil}, so call it off the FX thread.
     */
    void trust(java.util.function.Consumer<String> line);

    /** What {@code --untrust} does, each line handed to {@code line}; off the FX thread. */
    void untrust(java.util.function.Consumer<String> line);

    /** Stops everything at once. */
    @Override
    void close();
}
