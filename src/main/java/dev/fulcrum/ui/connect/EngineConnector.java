package dev.fulcrum.ui.connect;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.nio.file.Path;

/**
 * Opens what the window manages: the embedded engine (started here, so the window owns and closes it) or a
 * remote Fulcrum over its admin API. Both calls block; run them off the FX thread.
 */
public final class EngineConnector {
    /**
     * The class of the HTTP {@link EngineClient}, written on another branch. Looked up by name so this build
     * works with or without it; while it is absent, attaching says so instead of pretending.
     */
    public static final String HTTP_CLIENT_CLASS = "dev.fulcrum.admin.HttpEngineClient";

    private EngineConnector() {
    }

    /** A client, plus what to close with it (the embedded app) and the breaker thresholds when known. */
    public record Connection(EngineClient client, String description, AutoCloseable owned, BreakerConfig breaker) {
        public void close() {
            try {
                client.close();
            } finally {
                if (owned != null) {
                    try {
                        owned.close();
                    } catch (Exception e) {
                        org.slf4j.LoggerFactory.getLogger(EngineConnector.class).debug("close failed", e);
                    }
                }
            }
        }
    }

    /** Raised when remote attach cannot work in this build; the message is shown to the user as is. */
    public static final class UnavailableException extends RuntimeException {
        public UnavailableException(String message) {
            super(message);
        }
    }

    public static Connection embedded(FulcrumConfig config, Path file) {
        FulcrumApp app = FulcrumApp.start(config, file);
        try {
            EngineClient c = new InProcessEngineClient(app);
            return new Connection(c, c.describe(), app, config.circuitBreaker());
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
    }

    /**
     * The remote engine at {@code adminUrl} (http://host:adminport).
     * @throws UnavailableException when this build has no HTTP client (see {@link #HTTP_CLIENT_CLASS})
     */
    public static Connection attach(String adminUrl, String token) {
        Class<?> type;
        try {
            type = Class.forName(HTTP_CLIENT_CLASS);
        } catch (ClassNotFoundException e) {
            throw new UnavailableException("Remote attach is not available in this build: it has no HTTP engine client ("
                    + HTTP_CLIENT_CLASS + "). Run Fulcrum without --attach to use the embedded engine.");
        }
        EngineClient c;
        try {
            c = (EngineClient) type.getConstructor(URI.class, String.class).newInstance(URI.create(adminUrl), token);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
        } catch (ReflectiveOperationException e) {
            throw new UnavailableException("Remote attach is not available in this build: " + HTTP_CLIENT_CLASS
                    + " has no (URI, String) constructor.");
        }
        return new Connection(c, c.describe(), null, null);
    }
}
