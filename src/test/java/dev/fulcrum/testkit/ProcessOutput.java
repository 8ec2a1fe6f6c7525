package dev.fulcrum.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** What a process started by a test printed: its first line, waited for (a ready line). */
public final class ProcessOutput {
    private ProcessOutput() {
    }

    /**
     * The first line {@code process} prints on standard output, or null when it ends (or its output breaks) without
     * one; a {@link java.util.concurrent.TimeoutException} when none came within {@code within}.
     */
    public static String firstLine(Process process, Duration within) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(within.toMillis(), TimeUnit.MILLISECONDS);
    }
}
