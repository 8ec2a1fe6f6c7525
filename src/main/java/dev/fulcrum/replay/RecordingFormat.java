package dev.fulcrum.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The kinds of recording Fulcrum reads, by their {@code --format} names, and how one is told from the others by its
 * content: the first character that is not white space is {@code {} and the first object has a {@code log} field:
 * HAR; the first line is a whole JSON object with {@code time}, {@code method} and {@code path}: Fulcrum's JSON access
 * log; anything else: an nginx access log.
 */
public enum RecordingFormat {
    /** HAR 1.2, as Chrome DevTools and Fulcrum's Requests tab export it. */
    HAR("har"),
    /** An nginx access log, {@code combined} unless {@code --log-format} says otherwise. */
    NGINX("nginx"),
    /** Fulcrum's own JSON-lines access log ({@code proxy.accessLog}). */
    FULCRUM_JSON("fulcrum-json");

    private final String flag;

    RecordingFormat(String flag) {
        this.flag = flag;
    }

    /** The name {@code --format} takes. */
    public String flag() {
        return flag;
    }

    /** The format called {@code name} ({@code har}, {@code nginx}, {@code fulcrum-json}), or null. */
    public static RecordingFormat named(String name) {
        for (RecordingFormat f : values()) {
            if (f.flag.equals(name == null ? null : name.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        return null;
    }

    /** Reads as much of the start of {@code file} as it takes to tell its format. */
    public static RecordingFormat detect(Path file) throws IOException {
        try (InputStream in = Recording.openStream(file, null)) {
            return detect(in);
        }
    }

    static RecordingFormat detect(InputStream raw) throws IOException {
        java.io.BufferedInputStream in = new java.io.BufferedInputStream(raw, 1 << 16);
        in.mark(1 << 16);
        int c;
        do {
            c = in.read();
        } while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF);
        if (c != '{') {
            return NGINX;
        }
        in.reset();
        Set<String> fields = new HashSet<>();
        JsonParser p = new JsonFactory().createParser(in);
        try {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return NGINX;
            }
            int startLine = p.currentLocation().getLineNr();
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (name.equals("log")) {
                    return HAR;
                }
                fields.add(name);
                p.nextToken();
                p.skipChildren();
            }
            boolean oneLine = p.currentLocation().getLineNr() == startLine;
            if (t == JsonToken.END_OBJECT && oneLine && fields.containsAll(Set.of("time", "method", "path"))) {
                return FULCRUM_JSON;
            }
        } catch (IOException e) {
            // not JSON after all (or cut short before a "log" field): read as a log, whose lines then say why
        }
        return NGINX;
    }
}
