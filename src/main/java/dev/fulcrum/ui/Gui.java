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

    /**
     * Either {@code embedded} or {@code attachUrl} (+ token) is set; {@code fleet}: for an etcd address, what attaches
     * to that fleet (the command line's {@code --etcd-*} flags in it), null otherwise.
     */
    record Options(Embedded embedded, String attachUrl, String token,
                   java.util.function.Supplier<dev.fulcrum.admin.fleet.EtcdFleetClient> fleet) {
        Options(Embedded embedded, String attachUrl, String token) {
            this(embedded, attachUrl, token, null);
        }
    }

    private static volatile Options options;
    /** {@code --replay FILE [--speed X]}: the recording the window replays once its engine listens, or null. */
    private static volatile ReplayAtStart replayAtStart;

    /** A recording read through already, and the speed to replay it at. */
    record ReplayAtStart(dev.fulcrum.replay.ReplayFiles.Checked recording, double speed) {
    }

    static ReplayAtStart replayAtStart() {
        return replayAtStart;
    }

    private Gui() {
    }

    /**
     * The JavaFX pipeline to ask for, or null to leave JavaFX's own order. On Linux JavaFX tries OpenGL first. Without
     * a GPU (no render node in {@code dri}: a virtual machine, Xvfb, a remote X session) Mesa can only draw in software,
     * which JavaFX refuses before falling back to its own software pipeline: asking for that at once saves the attempt
     * (0.3 s of start) and keeps JavaFX from loading Mesa's OpenGL, which GTK loads as well unless started with
     * {@code GDK_GL=disable} (README, "Install"). A {@code prism.order} the user set is kept.
     */
    static String pipeline(String os, String prismOrder, Path dri) {
        if (prismOrder != null || os == null || !os.startsWith("Linux")) {
            return null;
        }
        try (java.util.stream.Stream<Path> nodes = java.nio.file.Files.list(dri)) {
            return nodes.anyMatch(p -> p.getFileName().toString().startsWith("renderD")) ? null : "sw";
        } catch (java.io.IOException | RuntimeException e) {
            return "sw";
        }
    }

    /**
     * The Prism settings to make before JavaFX starts, given the {@code prism.order} and
     * {@code prism.disableRegionCaching} set now (null when not): the {@link #pipeline}, and, when drawing in software,
     * no cache of region backgrounds. JavaFX keeps that cache in one 2048x1024 texture, which the software pipeline
     * holds as an 8 MB int[] on the heap: without it the window at rest is about 10 MB smaller and its renderer works
     * about an eighth more (BENCHMARKS.md). A setting the user made is kept.
     */
    static java.util.Map<String, String> prismSettings(String os, String prismOrder, String regionCaching, Path dri) {
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        String pipeline = pipeline(os, prismOrder, dri);
        if (pipeline != null) {
            settings.put("prism.order", pipeline);
        }
        if ("sw".equals(pipeline == null ? prismOrder : pipeline) && regionCaching == null) {
            settings.put("prism.disableRegionCaching", "true");
        }
        return settings;
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

    /**
     * {@link #embedded(FulcrumConfig, Path, UnaryOperator, boolean)}, replaying {@code replay} (when not null) through
     * the engine's proxy at {@code speed} once it listens, as the Traffic tab's <i>Replay a recording…</i> does.
     */
    public static int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                               boolean gentleTraffic, dev.fulcrum.replay.ReplayFiles.Checked replay, double speed) {
        replayAtStart = replay == null ? null : new ReplayAtStart(replay, speed);
        return embedded(config, configFile, overrides, gentleTraffic);
    }

    /** The window on a remote Fulcrum or HAProxy fleet ({@code --attach URL [--token T]}). */
    public static int attach(String url, String token) {
        return launch(new Options(null, url, token));
    }

    /**
     * The window on the Fulcrums sharing a config in etcd ({@code --attach etcd://...}): {@code fleet} attaches to them
     * (off the FX thread, blocking).
     */
    public static int attachFleet(String url, java.util.function.Supplier<dev.fulcrum.admin.fleet.EtcdFleetClient> fleet) {
        return launch(new Options(null, url, null, fleet));
    }

    private static int launch(Options o) {
        options = o;
        prismSettings(System.getProperty("os.name"), System.getProperty("prism.order"),
                System.getProperty("prism.disableRegionCaching"), Path.of("/dev/dri")).forEach(System::setProperty);
        FulcrumWindow.stopGracefullyOnSignals();
        Application.launch(FulcrumWindow.class);
        return FulcrumWindow.exitCode();
    }
}
