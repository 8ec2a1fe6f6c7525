package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * logrotate's default (rename, then create) moves the access log away. The file was opened once and never again,
 * so every later line went into the rotated file, which logrotate later compresses and deletes. As nginx, a reopen
 * (SIGUSR1, logrotate's postrotate) opens the configured path again.
 */
class AccessLogRotationTest {
    @Test
    void afterTheFileIsMovedAwayLinesGoToANewFileAtTheConfiguredPath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("access.log");
        AccessLog log = new AccessLog(file.toString());
        try {
            log.log(System.currentTimeMillis(), "GET", "/before", 200, "a", 1, 1_000, 5);
            await().atMost(Duration.ofSeconds(5)).until(() -> Files.exists(file) && Files.readString(file).contains("/before"));
            Path rotated = dir.resolve("access.log.1");
            Files.move(file, rotated);
            log.reopen(); // what SIGUSR1 does
            await().atMost(Duration.ofSeconds(5)).until(() -> Files.exists(file));
            log.log(System.currentTimeMillis(), "GET", "/after", 200, "a", 1, 1_000, 5);
            await().atMost(Duration.ofSeconds(5)).until(() -> Files.readString(file).contains("/after"));
            assertThat(Files.readString(rotated)).as("the rotated file").doesNotContain("/after");
        } finally {
            log.close();
        }
    }
}
