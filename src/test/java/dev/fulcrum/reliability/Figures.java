package dev.fulcrum.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Measured figures (detection times, counts) appended to {@code target/reliability/figures.md}, one line
 * per figure, so RELIABILITY.md can quote what a run measured. Logging them is not asserting them.
 */
final class Figures {
    private static final Path FILE = Path.of("target", "reliability", "figures.md");

    private Figures() {
    }

    static synchronized void record(String test, String figure) {
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, "- " + Instant.now() + " **" + test + "**: " + figure + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
