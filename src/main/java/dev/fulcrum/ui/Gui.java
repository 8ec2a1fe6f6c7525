package dev.fulcrum.ui;

import dev.fulcrum.config.FulcrumConfig;
import java.nio.file.Path;
import javafx.application.Application;

/** Starts the JavaFX window ({@link FulcrumWindow}); blocks until it closes. */
public final class Gui {
    /** The embedded engine to start, or null when attaching. */
    /** @param overrides what the command line sets over the file (--proxy-port, --admin-port), for reloads too */
    public record Embedded(FulcrumConfig config, Path configFile, java.util.function.UnaryOperator<FulcrumConfig> overrides) {
    }

    /** Either {@code embedded} or {@code attachUrl} (+ token) is set. */
    public record Options(Embedded embedded, String attachUrl, String token) {
    }

    private static volatile Options options;

    private Gui() {
    }

    static Options options() {
        return options;
    }

    /** @return the process exit code once the window has closed */
    public static int launch(Options o) {
        options = o;
        Application.launch(FulcrumWindow.class);
        return FulcrumWindow.exitCode();
    }
}
