package dev.fulcrum.ui.requests;

import dev.fulcrum.admin.Har;
import dev.fulcrum.requests.RequestSample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes requests as a HAR 1.2 file ({@link Har}, the same document {@code GET /api/requests/har} sends) on a thread
 * of its own, so the FX thread never waits on the disk. The file appears whole or not at all: it is written beside the
 * target and moved over it.
 */
public final class HarExport {
    private HarExport() {
    }

    /** Starts writing {@code newestFirst} to {@code file}; completes with the file, or with the failure. */
    public static CompletableFuture<Path> write(List<RequestSample> newestFirst, Path file) {
        List<RequestSample> copy = List.copyOf(newestFirst);
        CompletableFuture<Path> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                done.complete(writeNow(copy, file));
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        }, "fulcrum-har-export");
        t.setDaemon(true);
        t.start();
        return done;
    }

    static Path writeNow(List<RequestSample> newestFirst, Path file) {
        Path target = file.toAbsolutePath();
        try {
            Path part = Files.createTempFile(target.getParent(), ".fulcrum-", ".har.part");
            try {
                Files.writeString(part, Har.text(newestFirst), StandardCharsets.UTF_8);
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(part);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}
