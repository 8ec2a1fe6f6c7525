package dev.fulcrum.app;

import dev.fulcrum.config.FulcrumConfig;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Opens the desktop window, for {@link FulcrumCommand}: the command line decides whether there is a window, the
 * {@code dev.fulcrum.ui} package how it looks. {@code dev.fulcrum.Main} hands the command the ui's launcher, so this
 * package never imports the ui (which uses this package through {@link EmbeddedFulcrum}). Both calls block until the
 * window closes.
 */
public interface WindowLauncher {
    /**
     * Opens the window on an engine it starts itself from {@code config}.
     *
     * @param configFile the file the config came from, watched for edits; null for the embedded default
     * @param overrides  what the command line sets over every config applied (--proxy-port, --admin-port)
     * @return the process exit code
     */
    int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides);

    /**
     * {@link #embedded(FulcrumConfig, Path, UnaryOperator)}, and with {@code gentleTraffic} the window starts its traffic
     * generator at a gentle rate once the engine listens: what it does on the embedded default config, unless
     * {@code --no-traffic} (docs/REFERENCE.md §1). A launcher without traffic of its own opens the window without.
     *
     * @return the process exit code
     */
    default int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                         boolean gentleTraffic) {
        return embedded(config, configFile, overrides);
    }

    /**
     * {@link #embedded(FulcrumConfig, Path, UnaryOperator, boolean)}, and with {@code replay} (not null) the window
     * replays that recording through its proxy at {@code speed} once the engine listens, as the Traffic tab's
     * <i>Replay a recording…</i> does ({@code --replay FILE [--speed X]}, docs/REFERENCE.md §1). A launcher without
     * traffic of its own opens the window without.
     *
     * @return the process exit code
     */
    default int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                         boolean gentleTraffic, dev.fulcrum.replay.ReplayFiles.Checked replay, double speed) {
        return embedded(config, configFile, overrides, gentleTraffic);
    }

    /**
     * Opens the window on a remote Fulcrum ({@code http://host:adminport}) or a HAProxy fleet
     * ({@code haproxy://host:port[,host:port...]}).
     *
     * @return the process exit code
     */
    int attach(String url, String token);

    /**
     * {@link #attach(String, String)}, reaching an etcd fleet ({@code etcd://HOST:PORT[,...]/PREFIX}, {@code etcds://}
     * for TLS) with {@code etcd}'s flags ({@code --etcd-cacert}, {@code --etcd-cert}, {@code --etcd-key},
     * {@code --etcd-user}).
     *
     * @return the process exit code
     */
    default int attach(String url, String token, EtcdFlags etcd) {
        return attach(url, token);
    }
}
