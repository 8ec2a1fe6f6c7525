package dev.fulcrum.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Records workshop traffic to a JSON-lines file, one request per line, and reads such files back for
 * {@link TrafficReplay}:
 * <pre>
 *   {"offsetMicros":0,"method":"GET","path":"/","key":"k0"}
 *   {"offsetMicros":5000,"method":"POST","path":"/","key":"k17"}
 * </pre>
 * {@code offsetMicros} is the send time after the start of the run, {@code path} the path before the key was
 * placed (see {@link TrafficRequest}). The file is plain text so it can be edited, diffed or written by
 * another tool.
 *
 * <p>What is recorded: the requests the {@link TrafficGenerator} sends (hand a recorder to
 * {@link TrafficGenerator#recordTo}); the proxy's request listener sees only backend, status and latency, not
 * the key, so traffic from other clients is not recorded. Any other source of requests can be saved with
 * {@link #record(Path, List)}.
 *
 * <p>Example: {@code try (TrafficRecorder r = TrafficRecorder.open(file)) { generator.recordTo(r).start().done().join(); }}
 */
public final class TrafficRecorder implements Consumer<TrafficRequest>, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("offsetMicros", "method", "path", "key");

    private final Path file;
    private final BufferedWriter out;
    private long recorded;

    private TrafficRecorder(Path file, BufferedWriter out) {
        this.file = file;
        this.out = out;
    }

    /** Creates (or truncates) {@code file} and records into it until {@link #close()}. */
    public static TrafficRecorder open(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new TrafficRecorder(file, Files.newBufferedWriter(file, StandardCharsets.UTF_8));
    }

    /** Writes a whole list of requests to {@code file} (replacing it). */
    public static void record(Path file, List<TrafficRequest> requests) throws IOException {
        try (TrafficRecorder r = open(file)) {
            for (TrafficRequest q : requests) {
                r.write(q);
            }
        }
    }

    public Path file() {
        return file;
    }

    /** Requests written so far. */
    public synchronized long recorded() {
        return recorded;
    }

    /**
     * Appends one request (as a {@link Consumer} for {@link TrafficGenerator#recordTo}).
     *
     * @throws UncheckedIOException when the file cannot be written (the generator then stops recording)
     */
    @Override
    public void accept(TrafficRequest request) {
        try {
            write(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void write(TrafficRequest request) throws IOException {
        out.write(toLine(request));
        out.write('\n');
        recorded++;
    }

    public synchronized void flush() throws IOException {
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /** One request as its JSON line (no line end). */
    public static String toLine(TrafficRequest r) {
        ObjectNode n = JSON.createObjectNode();
        n.put("offsetMicros", r.offsetMicros());
        n.put("method", r.method());
        n.put("path", r.path());
        n.put("key", r.key());
        return n.toString();
    }

    /**
     * Reads a recorded file. Blank lines are skipped.
     *
     * @throws IOException naming the line, the field and the value for a line that is not a request, e.g.
     *                     {@code trace.jsonl line 3: method: must be GET or POST (got: PUT)}
     */
    public static List<TrafficRequest> read(Path file) throws IOException {
        List<TrafficRequest> out = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(parseLine(line));
            } catch (IllegalArgumentException e) {
                throw new IOException(file.getFileName() + " line " + lineNo + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * Parses one JSON line.
     *
     * @throws IllegalArgumentException naming the field and the value
     */
    public static TrafficRequest parseLine(String line) {
        JsonNode n;
        try {
            n = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object (got: " + abbreviate(line) + ")", e);
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("not a JSON object (got: " + abbreviate(line) + ")");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new IllegalArgumentException(f + ": unknown field (got: " + n.get(f) + ")");
            }
        }
        JsonNode t = n.get("offsetMicros");
        if (t == null || !t.canConvertToLong() || !t.isIntegralNumber()) {
            throw new IllegalArgumentException("offsetMicros: must be a whole number of microseconds (got: " + t + ")");
        }
        return new TrafficRequest(t.asLong(), text(n, "method"), text(n, "path"), text(n, "key"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(field + ": must be a string (got: " + v + ")");
        }
        return v.asText();
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
