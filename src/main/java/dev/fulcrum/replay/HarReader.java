package dev.fulcrum.replay;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A HAR 1.2 file (Chrome DevTools' "Save all as HAR", Fulcrum's {@code /api/requests/har}), streamed: Jackson's
 * parser walks to {@code log.entries} and reads one entry at a time into a tree, so only one entry is ever in memory.
 *
 * <p>Of an entry: {@code startedDateTime} is the arrival; {@code request.method}; {@code request.url}, of which the
 * path and query are kept; {@code request.headers} (HTTP/2's pseudo-headers such as {@code :authority} left out);
 * {@code request.postData.text}, the body; {@code timings.wait}, the service time (the time to the first byte of the
 * answer; -1 is "unknown"); Fulcrum's {@code _backend}, else {@code serverIPAddress}, the upstream;
 * {@code response.status}. A bad entry is reported at the line where it starts, with its number:
 * {@code FILE:LINE: entry 7: request.url: required}. A HAR has no client address.
 */
final class HarReader extends Recording {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final JsonParser parser;
    private boolean inEntries;
    private boolean done;
    private long entry;

    HarReader(Path file) throws IOException {
        super(file, RecordingFormat.HAR);
        this.parser = MAPPER.getFactory().createParser(stream());
    }

    @Override
    RecordedRequest read() throws IOException {
        try {
            if (!inEntries && !done && !findEntries()) {
                done = true;
            }
            while (!done) {
                JsonToken t = parser.nextToken();
                if (t == null || t == JsonToken.END_ARRAY) {
                    done = true;
                    break;
                }
                long line = parser.currentTokenLocation().getLineNr();
                entry++;
                if (t != JsonToken.START_OBJECT) {
                    parser.skipChildren();
                    bad(line, "entry " + entry + ": not an object");
                    continue;
                }
                JsonNode e = parser.readValueAsTree();
                try {
                    RecordedRequest r = toRequest(e, entry);
                    counted();
                    return r;
                } catch (Bad b) {
                    bad(line, "entry " + entry + ": " + b.getMessage());
                }
            }
        } catch (JsonProcessingException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            bad(line, "invalid JSON, the rest of the file is not read: "
                    + FulcrumJsonReader.firstLine(e.getOriginalMessage()));
            done = true;
        }
        return null;
    }

    /** Moves the parser to just inside {@code log.entries}; false (and a problem) when the file has none. */
    private boolean findEntries() throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            bad(1, "not a HAR file: not a JSON object");
            return false;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken v = parser.nextToken();
            if (!name.equals("log") || v != JsonToken.START_OBJECT) {
                parser.skipChildren();
                continue;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String inner = parser.currentName();
                JsonToken iv = parser.nextToken();
                if (inner.equals("entries") && iv == JsonToken.START_ARRAY) {
                    inEntries = true;
                    return true;
                }
                parser.skipChildren();
            }
            bad(parser.currentLocation().getLineNr(), "not a HAR file: log has no entries array");
            return false;
        }
        bad(1, "not a HAR file: no log object");
        return false;
    }

    static RecordedRequest toRequest(JsonNode e, long entry) throws Bad {
        String started = text(e, "", "startedDateTime", true);
        long at;
        try {
            OffsetDateTime t = OffsetDateTime.parse(started);
            at = t.toEpochSecond() * 1_000_000L + t.getNano() / 1000;
        } catch (DateTimeParseException x) {
            throw new Bad("startedDateTime: not an ISO-8601 date and time (got: "
                    + NginxLogFormat.abbreviate(started) + ")");
        }
        JsonNode req = e.get("request");
        if (req == null || !req.isObject()) {
            throw new Bad("request: required");
        }
        String method = text(req, "request.", "method", true);
        String url = text(req, "request.", "url", true);
        String target = Targets.pathAndQuery(url);
        if (target == null) {
            throw new Bad("request.url: not a URL (got: " + NginxLogFormat.abbreviate(url) + ")");
        }
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        JsonNode hs = req.get("headers");
        if (hs != null && hs.isArray()) {
            for (JsonNode h : hs) {
                JsonNode n = h.get("name");
                JsonNode v = h.get("value");
                if (n != null && n.isTextual() && !n.asText().startsWith(":") && v != null && v.isValueNode()) {
                    headers.add(Map.entry(n.asText(), v.asText()));
                }
            }
        }
        byte[] body = null;
        JsonNode post = req.get("postData");
        if (post != null && post.get("text") != null && post.get("text").isTextual()) {
            body = post.get("text").asText().getBytes(StandardCharsets.UTF_8);
        }
        double service = Double.NaN;
        JsonNode timings = e.get("timings");
        if (timings != null && timings.get("wait") != null && timings.get("wait").isNumber()
                && timings.get("wait").asDouble() >= 0) {
            service = timings.get("wait").asDouble();
        }
        String upstream = text(e, "", "_backend", false);
        if (upstream == null) {
            upstream = text(e, "", "serverIPAddress", false);
        }
        int status = 0;
        JsonNode resp = e.get("response");
        if (resp != null && resp.get("status") != null && resp.get("status").canConvertToInt()) {
            status = resp.get("status").asInt();
        }
        return new RecordedRequest(at, method, target, headers, body, service, upstream, status, null, entry);
    }

    private static String text(JsonNode o, String in, String field, boolean required) throws Bad {
        JsonNode v = o.get(field);
        if (v == null || v.isNull() || (v.isTextual() && v.asText().isEmpty())) {
            if (required) {
                throw new Bad(in + field + ": required");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new Bad(in + field + ": must be a string (got: " + NginxLogFormat.abbreviate(v.toString()) + ")");
        }
        return v.asText();
    }

    static final class Bad extends Exception {
        Bad(String reason) {
            super(reason, null, false, false);
        }
    }

    @Override
    public void close() throws IOException {
        parser.close();
        super.close();
    }
}
