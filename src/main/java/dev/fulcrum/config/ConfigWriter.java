package dev.fulcrum.config;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Map;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Writes a config as pretty JSON that {@link ConfigLoader} reads back into an equal record, and saves it atomically.
 *
 * <p>Every config field is written, nulls included ({@code "accessLog": null}) so that a saved file shows what can be
 * set; a strategy object is written with only the fields its type uses.
 */
public final class ConfigWriter {
    /** A strategy object as configs write it: {@code type}, then its settings flat beside it. */
    private static final class StrategyWriter extends StdSerializer<StrategySpec> {
        StrategyWriter() {
            super(StrategySpec.class);
        }

        @Override
        public void serialize(StrategySpec spec, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeStartObject();
            out.writeStringField("type", spec.type());
            for (Map.Entry<String, Object> e : spec.options().entrySet()) {
                out.writeFieldName(e.getKey());
                provider.defaultSerializeValue(e.getValue(), out);
            }
            out.writeEndObject();
        }
    }

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new SimpleModule().addSerializer(StrategySpec.class, new StrategyWriter()))
            .enable(SerializationFeature.INDENT_OUTPUT)
            // "port": 8080 as people write it, not Jackson's default "port" : 8080
            .defaultPrettyPrinter(new DefaultPrettyPrinter().withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)))
            .build();

    private ConfigWriter() {
    }

    /** The config as pretty-printed JSON text, ending in a newline. */
    public static String toJson(FulcrumConfig config) {
        try {
            return MAPPER.writeValueAsString(config) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write config as JSON", e);
        }
    }

    /** The config as a JSON tree (e.g. for {@code GET /api/config}). */
    public static JsonNode toTree(FulcrumConfig config) {
        return MAPPER.valueToTree(config);
    }

    /** A strategy as a JSON tree with only the fields its type uses. */
    public static JsonNode toTree(StrategySpec strategy) {
        return MAPPER.valueToTree(strategy);
    }

    /**
     * Saves the config to {@code target} so that the file is always either the old content or the whole new one:
     * the JSON is made and checked first (a config that would not load back, {@link ConfigException}, is never
     * written), then written and forced to a temporary file in the same directory, then renamed over the target in
     * one atomic step. On any failure the target is untouched and the temporary file removed.
     *
     * <p>An existing target keeps its POSIX permissions; a new one gets owner-only permissions, since a config may
     * hold the admin token.
     *
     * @throws ConfigException     the config has problems; nothing was written
     * @throws UncheckedIOException the file system refused (read-only directory, disk full); target untouched
     */
    public static void writeAtomically(Path target, FulcrumConfig config) {
        String json = toJson(config);
        ConfigLoader.parse(json); // throws ConfigException: never save what could not start
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            copyPermissions(absolute, tmp);
            try {
                Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // same directory, so still a rename on every file system we know; only the guarantee is weaker
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            syncDirectory(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save config to " + absolute + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the write already failed and is being reported; a stray temp file is the lesser problem
                }
            }
        }
    }

    private static void copyPermissions(Path from, Path to) throws IOException {
        if (Files.exists(from) && Files.getFileStore(to).supportsFileAttributeView("posix")) {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(from);
            Files.setPosixFilePermissions(to, perms);
        }
    }

    /** Makes the rename durable where the platform allows opening a directory (Linux); elsewhere a no-op. */
    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // not supported here (e.g. Windows); the rename itself is still atomic
        }
    }
}
