package dev.fulcrum.app;

import picocli.CommandLine;

/**
 * The jar's entry point. It does not extend {@code javafx.application.Application}, so the JavaFX runtime
 * can start from a plain classpath jar ({@code java -jar target/fulcrum.jar}); headless mode never touches
 * JavaFX at all.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int code = new CommandLine(new FulcrumCommand()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        if (code != FulcrumCommand.KEEP_RUNNING) {
            System.exit(code);
        }
    }
}
