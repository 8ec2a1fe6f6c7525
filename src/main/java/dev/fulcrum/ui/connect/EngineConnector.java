package dev.fulcrum.ui.connect;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.admin.fleet.EtcdFleetClient;
import dev.fulcrum.admin.haproxy.HaproxyFleetClient;
import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.i18n.Texts;
import java.net.URI;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Opens what the window manages: the embedded engine (started here, so the window owns and closes it) or a
 * remote Fulcrum over its admin API. Both calls block; run them off the FX thread.
 */
public final class EngineConnector {
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

    /** Starts the embedded engine ({@link EmbeddedFulcrum#start}); the connection owns it. */
    public static Connection embedded(FulcrumConfig config, Path file, UnaryOperator<FulcrumConfig> overrides) {
        EmbeddedFulcrum app = EmbeddedFulcrum.start(config, file, overrides);
        try {
            EngineClient c = app.client();
            return new Connection(c, c.describe(), app, config.circuitBreaker());
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
    }

    /**
     * A remote Fulcrum ({@code http://host:adminport}, with its admin token) or a fleet of HAProxy instances
     * ({@code haproxy://host:port[,host:port...]}, their runtime API on TCP stats sockets).
     */
    public static Connection attach(String url, String token) {
        return attach(url, token, problem -> null);
    }

    /**
     * Asked for an admin token when the engine refuses the one given (or none): shown the reason, it answers the token
     * to try next, or null to give up. The connecting thread waits for the answer.
     */
    @FunctionalInterface
    public interface TokenPrompt {
        String ask(String problem);
    }

    /**
     * {@link #attach(String, String)}, asking {@code prompt} for another token as long as the engine answers 401 and
     * the prompt gives one. A refusal it gives up on says how to pass a token.
     */
    public static Connection attach(String url, String token, TokenPrompt prompt) {
        if (url.regionMatches(true, 0, "haproxy://", 0, 10)) {
            HaproxyFleetClient fleet = HaproxyFleetClient.attach(url);
            return new Connection(fleet, fleet.describe(), null, null);
        }
        String tried = token;
        while (true) {
            HttpEngineClient c = new HttpEngineClient(URI.create(url), tried);
            try {
                c.state(); // fail here, with the admin API's own message, rather than in the first sample
            } catch (EngineException e) {
                c.close();
                if (e.status() != 401) {
                    throw e;
                }
                EngineException explained = new EngineException(401, tokenProblem(url, tried, e.getMessage()));
                String next = prompt.ask(explained.getMessage());
                if (next == null) {
                    throw explained;
                }
                tried = next;
                continue;
            }
            // its thresholds, so the Breakers tab says "opens at 50%" as for an embedded engine
            return new Connection(c, c.describe(), null, c.breakerConfig());
        }
    }

    /**
     * The Fulcrums sharing a config in etcd ({@code --attach etcd://...}), attached already (the command line's
     * {@code --etcd-*} flags are the app's, so the app attaches): the Breakers tab gets the config's thresholds.
     */
    public static Connection fleet(EtcdFleetClient fleet) {
        return new Connection(fleet, fleet.describe(), null, fleet.breakerConfig());
    }

    /** Why the engine refused, and the two ways to give the window a token. */
    static String tokenProblem(String url, String token, String serverMessage) {
        String what = token == null || token.isBlank()
                ? Texts.t("connect.token.none", url) : Texts.t("connect.token.refused", url);
        return Texts.t("connect.token.problem", what, serverMessage, HttpEngineClient.TOKEN_ENV);
    }
}
