package dev.fulcrum;

import dev.fulcrum.app.FulcrumCommand;
import dev.fulcrum.app.WindowLauncher;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.lesson.LessonCheck;
import dev.fulcrum.ui.Gui;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The jar's entry point, above both {@code dev.fulcrum.app} and {@code dev.fulcrum.ui}: it runs the command line
 * ({@link FulcrumCommand}) and gives it the ui's window to open and the lessons' checker
 * ({@code --lesson FILE --check}), so the app never imports the ui or the lessons. It does not extend
 * {@code javafx.application.Application}, so the JavaFX runtime can start from a plain classpath jar
 * ({@code java -jar target/fulcrum.jar}); headless mode never touches JavaFX at all (the ui's classes load only when
 * a window opens).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = FulcrumCommand.run(args, new Window(), Main::checkLesson);
        } catch (Throwable t) {
            // an Error escaping (a class failing to load during shutdown, say, when the jar was replaced under a
            // running process) must still end the process: the proxy's I/O threads would keep it alive, half stopped
            System.err.println("fulcrum: failed: " + t);
            t.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }

    /** {@code --lesson FILE --check}: the lines on standard output (which carries nothing else), problems on error. */
    private static int checkLesson(Path file, long stepPauseMs) {
        return LessonCheck.run(file, stepPauseMs, FulcrumCommand.stdout(), System.err);
    }

    /** The desktop window of {@code dev.fulcrum.ui}. */
    private static final class Window implements WindowLauncher {
        @Override
        public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides) {
            return embedded(config, configFile, overrides, false);
        }

        @Override
        public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                            boolean gentleTraffic) {
            return Gui.embedded(config, configFile, overrides, gentleTraffic);
        }

        @Override
        public int embedded(FulcrumConfig config, Path configFile, UnaryOperator<FulcrumConfig> overrides,
                            boolean gentleTraffic, dev.fulcrum.replay.ReplayFiles.Checked replay, double speed) {
            return Gui.embedded(config, configFile, overrides, gentleTraffic, replay, speed);
        }

        @Override
        public int attach(String url, String token) {
            return Gui.attach(url, token);
        }

        @Override
        public int attach(String url, String token, dev.fulcrum.app.EtcdFlags etcd) {
            return Gui.attachFleet(url, () -> dev.fulcrum.app.FleetAttach.connect(url, etcd));
        }
    }
}
