package dev.fulcrum.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Fulcrum's JSON access log ({@code proxy.accessLog}), a line at a time: {@code time}, {@code method}, {@code path},
 * {@code status}, {@code backend}, {@code attempts}, {@code latencyMs}, {@code bytes}. The log writes a line when the
 * answer is done, so the arrival is {@code time} less {@code latencyMs}; {@code latencyMs} is the service time (it
 * counts every attempt and the proxy's own few microseconds); {@code backend} is the upstream. The log has no query
 * string, headers or client, so a replay keyed on them hashes the client's fallback instead.
 */
final class FulcrumJsonReader extends Recording {
    private static final JsonFactory JSON = new JsonFactory();
    private final BufferedReader in;
    private long line;

    FulcrumJsonReader(Path file) throws IOException {
        super(file, RecordingFormat.FULCRUM_JSON);
        this.in = lines();
    }

    @Override
    RecordedRequest read() throws IOException {
        String s;
        while ((s = in.readLine()) != null) {
            line++;
            if (s.isBlank()) {
                continue;
            }
            String problem;
            try {
                RecordedRequest r = parse(s);
                if (r != null) {
                    counted();
                    return r;
                }
                problem = "no time, method or path";
            } catch (Bad e) {
                problem = e.getMessage();
            } catch (IOException e) {
                problem = "not a JSON object (" + firstLine(e.getMessage()) + ")";
            }
            bad(line, problem);
        }
        return null;
    }

    private RecordedRequest parse(String s) throws IOException, Bad {
        String time = null;
        String method = null;
        String path = null;
        String backend = null;
        int status = 0;
        double latencyMs = Double.NaN;
        try (JsonParser p = JSON.createParser(s)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new Bad("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                switch (name) {
                    case "time" -> time = text(p, v, name);
                    case "method" -> method = text(p, v, name);
                    case "path" -> path = text(p, v, name);
                    case "backend" -> backend = v == JsonToken.VALUE_NULL ? null : text(p, v, name);
                    case "status" -> {
                        if (v != JsonToken.VALUE_NUMBER_INT) {
                            throw new Bad("status: must be an integer (got: " + p.getText() + ")");
                        }
                        status = p.getIntValue();
                    }
                    case "latencyMs" -> {
                        if (!v.isNumeric()) {
                            throw new Bad("latencyMs: must be a number (got: " + p.getText() + ")");
                        }
                        latencyMs = p.getDoubleValue();
                    }
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new Bad("not one JSON object");
            }
        }
        if (time == null || method == null || path == null) {
            return null;
        }
        long end;
        try {
            Instant t = Instant.parse(time);
            end = t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
        } catch (DateTimeParseException e) {
            throw new Bad("time: not an ISO-8601 instant (got: " + NginxLogFormat.abbreviate(time) + ")");
        }
        String target = Targets.pathAndQuery(path);
        if (target == null) {
            throw new Bad("path: not a path (got: " + NginxLogFormat.abbreviate(path) + ")");
        }
        long at = Double.isNaN(latencyMs) ? end : end - Math.round(latencyMs * 1000);
        return new RecordedRequest(at, method, target, List.of(), null, latencyMs, backend, status, null, line);
    }

    private static String text(JsonParser p, JsonToken v, String name) throws IOException, Bad {
        if (v != JsonToken.VALUE_STRING) {
            throw new Bad(name + ": must be a string (got: " + p.getText() + ")");
        }
        return p.getText();
    }

    static String firstLine(String s) {
        if (s == null) {
            return "invalid JSON";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static final class Bad extends Exception {
        Bad(String reason) {
            super(reason, null, false, false);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
        super.close();
    }
}
