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
        int code;
        try {
            code = new CommandLine(new FulcrumCommand()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        } catch (Throwable t) {
            // an Error escaping (seen: a jar replaced under a running process failing a class load during
            // shutdown) must still end the process: the proxy's I/O threads would keep it alive, half stopped
            System.err.println("fulcrum: failed: " + t);
            t.printStackTrace();
            code = 1;
        }
        if (code != FulcrumCommand.KEEP_RUNNING) {
            System.exit(code);
        }
    }
}
