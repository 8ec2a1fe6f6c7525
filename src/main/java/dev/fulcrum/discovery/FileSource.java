package dev.fulcrum.discovery;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A JSON file listing backends, {@code [{"id":"a","url":"http://10.0.0.5:8080","weight":2,"labels":{"zone":"b"}},
 * ...]}, re-read every refresh. A file that is missing or unreadable, does not parse, or names a bad id, URL, weight,
 * maxInFlight or label is an error that keeps the last good list (a half-saved file, or one deleted while a deploy
 * tool replaces it, must not empty the pool); only a valid file listing no backends, {@code []}, means none.
 * Entries are read by the config's own rules ({@link ConfigLoader#parseBackends}): a wrong type is an error, never
 * converted.
 */
final class FileSource implements DiscoverySource {
    private final DiscoveryConfig config;
    private final Path file;

    FileSource(DiscoveryConfig config) {
        this.config = config;
        this.file = Path.of(config.path());
    }

    @Override
    public String label() {
        return config.label();
    }

    @Override
    public List<BackendSpec> resolve() throws IOException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new IOException(file + ": no such file");
        } catch (IOException e) {
            throw new IOException(file + ": cannot be read (" + e + ")");
        }
        try {
            return ConfigLoader.parseBackends(text, file.toString()).stream().map(BackendConfig::toSpec).toList();
        } catch (ConfigException e) {
            // every problem on one line: the caller logs it and publishes it as one discovery event
            throw new IOException(e.problems().stream().map(ConfigProblem::describe)
                    .collect(Collectors.joining("; ")));
        }
    }
}
