package dev.fulcrum.ui;

import dev.fulcrum.config.FulcrumConfig;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import javafx.application.Application;

/** Starts the JavaFX window ({@link FulcrumWindow}); each call blocks until it closes and returns the exit code. */
public final class Gui {
    /**
     * The embedded engine to start.
     *
     * @param overrides     what the command line sets over the file (--proxy-port, --admin-port), for reloads too
     * @param gentleTraffic whether the window starts gentle traffic once the engine listens (the default config's)
     */
    record Embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                    boolean gentleTraffic) {
    }

    /** Either {@code embedded} or {@code attachUrl} (+ token) is set. */
    record Options(Embedded embedded, String attachUrl, String token) {
    }

    private static volatile Options options;

    private Gui() {
    }

    static Options options() {
        return options;
    }

    /** The window on an engine it starts from {@code config} (and {@code configFile}'s later edits, when not null). */
    public static int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
        return embedded(config, configFile, overrides, false);
    }

    /**
     * {@link #embedded(FulcrumConfig, Path, UnaryOperator)}, starting the traffic generator at a gentle rate
     * ({@link SessionTraffic#startGentle()}) once the engine listens when {@code gentleTraffic}.
     */
    public static int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                               boolean gentleTraffic) {
        return launch(new Options(new Embedded(config, configFile, overrides, gentleTraffic), null, null));
    }

    /** The window on a remote Fulcrum or HAProxy fleet ({@code --attach URL [--token T]}). */
    public static int attach(String url, String token) {
        return launch(new Options(null, url, token));
    }

    private static int launch(Options o) {
        options = o;
        FulcrumWindow.stopGracefullyOnSignals();
        Application.launch(FulcrumWindow.class);
        return FulcrumWindow.exitCode();
    }
}
