package dev.fulcrum.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.config.ConfigValidator;
import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A JSON file listing backends, {@code [{"id":"a","url":"http://10.0.0.5:8080","weight":2}, ...]}, re-read
 * every refresh. A file that is missing or unreadable, does not parse, or names a bad id, URL, weight or
 * maxInFlight is an error that keeps the last good list (a half-saved file, or one deleted while a deploy tool
 * replaces it, must not empty the pool); only a valid file listing no backends, {@code []}, means none.
 */
final class FileSource implements DiscoverySource {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("id", "url", "weight", "maxInFlight", "backup");

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
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (IOException e) {
            throw new IOException(file + ": not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (root == null || !root.isArray()) {
            throw new IOException(file + ": must be a JSON array of {\"id\",\"url\",\"weight\"}");
        }
        List<BackendSpec> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode n = root.get(i);
            String at = file + "[" + i + "]";
            if (!n.isObject()) {
                throw new IOException(at + ": must be an object (got: " + n + ")");
            }
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!FIELDS.contains(f)) {
                    throw new IOException(at + "." + f + ": unknown field (got: " + n.get(f) + ")");
                }
            }
            String id = n.path("id").asText(null);
            String url = n.path("url").asText(null);
            int weight = n.has("weight") ? n.get("weight").asInt(-1) : 1;
            if (id == null || !ConfigValidator.ID.matcher(id).matches() || !ids.add(id)) {
                throw new IOException(at + ".id: must be a unique id of 1-64 of [A-Za-z0-9._-] (got: " + n.get("id") + ")");
            }
            String urlProblem = url == null ? "required" : ConfigValidator.urlProblem(url);
            if (urlProblem != null) {
                throw new IOException(at + ".url: " + urlProblem + " (got: " + n.get("url") + ")");
            }
            if (weight < 0 || weight > ConfigValidator.MAX_WEIGHT || (n.has("weight") && !n.get("weight").isIntegralNumber())) {
                throw new IOException(at + ".weight: must be between 0 and 1000 (got: " + n.get("weight") + ")");
            }
            // checked here like the weight, so a bad cap refuses the file with its path, not the entry at every refresh
            if (n.hasNonNull("maxInFlight") && (!n.get("maxInFlight").isIntegralNumber() || n.get("maxInFlight").asInt() < 1)) {
                throw new IOException(at + ".maxInFlight: must be at least 1, or null for no cap (got: " + n.get("maxInFlight") + ")");
            }
            Integer max = n.hasNonNull("maxInFlight") ? n.get("maxInFlight").asInt() : null;
            out.add(new BackendSpec(id, url, weight, max, n.path("backup").asBoolean(false)));
        }
        return out;
    }
}
