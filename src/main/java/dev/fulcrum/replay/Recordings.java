package dev.fulcrum.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one way to read a recording: {@code Recordings.open(file, null, null)} detects the format by content
 * ({@link RecordingFormat}) and reads an nginx log as {@code combined}.
 */
public final class Recordings {
    private Recordings() {
    }

    /**
     * Opens {@code file} for streaming.
     *
     * @param format    {@code har}, {@code nginx} or {@code fulcrum-json}; null to detect it from the content
     * @param logFormat for nginx logs, the {@code log_format} text (or {@code combined}, {@code main}); null for
     *                  {@code combined}
     * @throws IllegalArgumentException for an unknown format or a log format that does not compile, its message
     *                                  ready to follow {@code --format: } or {@code --log-format: }
     * @throws IOException              when the file cannot be read
     */
    public static Recording open(Path file, String format, String logFormat) throws IOException {
        RecordingFormat f;
        if (format == null) {
            f = null;
        } else {
            f = RecordingFormat.named(format);
            if (f == null) {
                throw new IllegalArgumentException("--format: one of har, nginx, fulcrum-json (got: " + format + ")");
            }
        }
        NginxLogFormat nginx;
        try {
            nginx = NginxLogFormat.compile(logFormat);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--log-format: " + e.getMessage() + " (got: " + logFormat + ")");
        }
        if (!Files.isRegularFile(file)) {
            throw new java.nio.file.NoSuchFileException(file.toString(), null, "no such file");
        }
        if (f == null) {
            f = RecordingFormat.detect(file);
        }
        return switch (f) {
            case HAR -> new HarReader(file);
            case NGINX -> new NginxReader(file, nginx);
            case FULCRUM_JSON -> new FulcrumJsonReader(file);
        };
    }
}
