package dev.fulcrum.replay;

import static dev.fulcrum.rules.JsonText.quote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.engine.sim.LockStep;
import dev.fulcrum.engine.sim.ReplayBackend;
import dev.fulcrum.engine.sim.StrategyFigures;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of a side by side over a recording: a row per strategy ({@link StrategyFigures}), and where they came
 * from. {@link #toJson} is {@code result.json} (docs/REFERENCE.md §6), the same bytes for the same run: fields in a
 * fixed order, backends sorted by id, numbers with a fixed number of decimals (milliseconds 3, shares and ratios 4).
 * {@link #read} reads it back, for the window.
 *
 * @param recording        the recording's file name
 * @param format           {@code har}, {@code nginx} or {@code fulcrum-json}
 * @param entries          lines (or HAR entries) read
 * @param bad              of those, skipped as bad
 * @param requests         requests played
 * @param late             of those, played later than recorded: arrived before one already played (out of order by
 *                         more than the reorder window)
 * @param defaultedService of those, without a recorded service time (given the default)
 * @param backends         the simulated backends, sorted by id
 * @param strategies       a row per strategy, in the order given
 */
public record ComparisonResult(String recording, String format, long entries, long bad, long requests, long late,
                               long defaultedService, List<ReplayBackend> backends, List<StrategyFigures> strategies) {
    public ComparisonResult {
        backends = backends.stream().sorted(java.util.Comparator.comparing(ReplayBackend::id)).toList();
        strategies = List.copyOf(strategies);
    }

    /** The row of the strategy labelled {@code name}. */
    public StrategyFigures strategy(String name) {
        for (StrategyFigures f : strategies) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("strategy: not in this result (got: " + name + ")");
    }

    // ---------------------------------------------------------------- result.json

    /** {@code result.json}: two-space indented, {@code \n} line ends, ending in a newline. */
    public String toJson() {
        StringBuilder b = new StringBuilder(4096);
        b.append("{\n");
        b.append("  \"requests\": ").append(requests).append(",\n");
        b.append("  \"recording\": {\"file\": ").append(quote(recording)).append(", \"format\": ").append(quote(format))
                .append(", \"entries\": ").append(entries).append(", \"bad\": ").append(bad)
                .append(", \"late\": ").append(late).append(", \"defaultServiceTime\": ").append(defaultedService)
                .append("},\n");
        b.append("  \"backends\": [");
        for (int i = 0; i < backends.size(); i++) {
            ReplayBackend r = backends.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("    {\"id\": ").append(quote(r.id())).append(", \"weight\": ")
                    .append(r.weight()).append(", \"speed\": ").append(plain(r.speed())).append(", \"workers\": ")
                    .append(r.workers()).append(", \"labels\": ");
            object(b, new TreeMap<>(r.labels()));
            b.append('}');
        }
        b.append("\n  ],\n");
        b.append("  \"strategies\": [");
        for (int i = 0; i < strategies.size(); i++) {
            StrategyFigures f = strategies.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("    {\n");
            b.append("      \"name\": ").append(quote(f.name())).append(",\n");
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("type", f.spec().type());
            spec.putAll(new TreeMap<>(f.spec().options()));
            b.append("      \"strategy\": ");
            object(b, spec);
            b.append(",\n");
            b.append("      \"requests\": ").append(f.routed()).append(",\n");
            b.append("      \"unrouted\": ").append(f.unrouted()).append(",\n");
            b.append("      \"perBackend\": {");
            boolean first = true;
            for (String id : f.requestsPerBackend().keySet()) {
                b.append(first ? "\n" : ",\n").append("        ").append(quote(id)).append(": {\"requests\": ")
                        .append(f.requestsPerBackend().get(id)).append(", \"share\": ").append(fixed(f.share(id), 4))
                        .append(", \"peakInFlight\": ").append(f.peakInFlight().getOrDefault(id, 0)).append('}');
                first = false;
            }
            b.append("\n      },\n");
            b.append("      \"maxMeanLoad\": ").append(fixed(f.maxMeanLoad(), 4)).append(",\n");
            b.append("      \"cv\": ").append(fixed(f.cv(), 4)).append(",\n");
            b.append("      \"p50Ms\": ").append(fixed(f.p50Ms(), 3)).append(",\n");
            b.append("      \"p99Ms\": ").append(fixed(f.p99Ms(), 3)).append(",\n");
            b.append("      \"p999Ms\": ").append(fixed(f.p999Ms(), 3)).append(",\n");
            b.append("      \"meanMs\": ").append(fixed(f.meanMs(), 3)).append(",\n");
            b.append("      \"maxMs\": ").append(fixed(f.maxMs(), 3)).append(",\n");
            b.append("      \"keysMoved\": ");
            if (f.keysMoved() == null) {
                b.append("null");
            } else {
                Map<String, Object> moved = new LinkedHashMap<>();
                f.keysMoved().forEach((k, v) -> moved.put(k, new BigDecimal(fixed(v, 4))));
                object(b, moved);
            }
            b.append("\n    }");
        }
        b.append("\n  ]\n}\n");
        return b.toString();
    }

    static String fixed(double d, int decimals) {
        if (!Double.isFinite(d)) {
            return "null";
        }
        return BigDecimal.valueOf(d).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String plain(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    private static void object(StringBuilder b, Map<String, ?> m) {
        b.append('{');
        boolean first = true;
        for (Map.Entry<String, ?> e : m.entrySet()) {
            b.append(first ? "" : ", ").append(quote(e.getKey())).append(": ");
            value(b, e.getValue());
            first = false;
        }
        b.append('}');
    }

    @SuppressWarnings("unchecked")
    private static void value(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof BigDecimal d) {
            b.append(d.toPlainString());
        } else if (v instanceof Double d) {
            b.append(plain(d));
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Map<?, ?> m) {
            object(b, new TreeMap<>((Map<String, ?>) m));
        } else {
            b.append(quote(v.toString()));
        }
    }

    /**
     * Reads a {@code result.json} back.
     *
     * @throws IOException              when it cannot be read
     * @throws IllegalArgumentException naming what is missing, e.g. {@code FILE: strategies: required}
     */
    public static ComparisonResult read(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + ": not a result of --compare (not a JSON object)");
        }
        JsonNode rows = root.get("strategies");
        if (rows == null || !rows.isArray() || root.get("requests") == null) {
            throw new IllegalArgumentException(file + ": not a result of --compare (no requests and strategies)");
        }
        JsonNode rec = root.path("recording");
        List<ReplayBackend> backends = new ArrayList<>();
        for (JsonNode b : root.path("backends")) {
            Map<String, String> labels = new TreeMap<>();
            b.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            backends.add(new ReplayBackend(b.path("id").asText(), b.path("weight").asInt(1), labels,
                    b.path("speed").asDouble(1), b.path("workers").asInt(0)));
        }
        List<StrategyFigures> figures = new ArrayList<>();
        for (JsonNode r : rows) {
            String name = r.path("name").asText(null);
            if (name == null) {
                throw new IllegalArgumentException(file + ": strategies[" + figures.size() + "].name: required");
            }
            Map<String, Object> options = new LinkedHashMap<>();
            String type = r.path("strategy").path("type").asText(name);
            for (Iterator<Map.Entry<String, JsonNode>> it = r.path("strategy").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getKey().equals("type")) {
                    JsonNode v = e.getValue();
                    options.put(e.getKey(), v.isIntegralNumber() ? (Object) v.asLong() : v.isNumber() ? v.asDouble()
                            : v.asText());
                }
            }
            Map<String, Long> per = new TreeMap<>();
            Map<String, Integer> peak = new TreeMap<>();
            r.path("perBackend").fields().forEachRemaining(e -> {
                per.put(e.getKey(), e.getValue().path("requests").asLong());
                peak.put(e.getKey(), e.getValue().path("peakInFlight").asInt());
            });
            Map<String, Double> moved = null;
            if (r.path("keysMoved").isObject()) {
                Map<String, Double> m = new TreeMap<>();
                r.path("keysMoved").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asDouble()));
                moved = m;
            }
            figures.add(new StrategyFigures(name, new StrategySpec(type, options), per, r.path("unrouted").asLong(),
                    peak, r.path("p50Ms").asDouble(), r.path("p99Ms").asDouble(), r.path("p999Ms").asDouble(),
                    r.path("meanMs").asDouble(), r.path("maxMs").asDouble(), moved));
        }
        return new ComparisonResult(rec.path("file").asText(file.getFileName().toString()),
                rec.path("format").asText(""), rec.path("entries").asLong(), rec.path("bad").asLong(),
                root.path("requests").asLong(), rec.path("late").asLong(), rec.path("defaultServiceTime").asLong(),
                backends, figures);
    }

    // ---------------------------------------------------------------- the table

    /**
     * The table the command line prints: a line on the recording, then a row per strategy with its requests, each
     * backend's share, max/mean load, coefficient of variation, p50/p99/p999 latency, and for a hashing strategy the
     * keys moved when each backend leaves.
     */
    public String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%s (%s): %d requests, %d bad of %d %s, %d backends%s%s\n", recording,
                format, requests, bad, entries, format.equals("har") ? "entries" : "lines", backends.size(),
                late == 0 ? "" : ", " + late + " played late (out of order)",
                defaultedService == 0 ? "" : ", " + defaultedService + " without a service time ("
                        + (int) LockStep.DEFAULT_SERVICE_MS + " ms taken)"));
        int nameWidth = "strategy".length();
        for (StrategyFigures f : strategies) {
            nameWidth = Math.max(nameWidth, f.name().length());
        }
        List<String> ids = backends.stream().map(ReplayBackend::id).toList();
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s %10s", "strategy",
                "requests"));
        for (String id : ids) {
            head.append(String.format(Locale.ROOT, " %8s", abbreviate(id, 8)));
        }
        head.append(String.format(Locale.ROOT, " %8s %6s %9s %9s %9s  %s", "max/mean", "cv", "p50 ms", "p99 ms",
                "p999 ms", "keys moved when one leaves"));
        b.append(head.toString().stripTrailing()).append('\n');
        for (StrategyFigures f : strategies) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s %10d", f.name(),
                    f.routed()));
            for (String id : ids) {
                row.append(String.format(Locale.ROOT, " %7.1f%%", 100 * f.share(id)));
            }
            row.append(String.format(Locale.ROOT, " %8.3f %6.3f %9.3f %9.3f %9.3f  ", f.maxMeanLoad(), f.cv(),
                    f.p50Ms(), f.p99Ms(), f.p999Ms()));
            if (f.keysMoved() == null) {
                row.append("-");
            } else {
                List<String> parts = new ArrayList<>();
                f.keysMoved().forEach((id, share) -> parts.add(String.format(Locale.ROOT, "%s %.1f%%", id,
                        100 * share)));
                row.append(String.join(", ", parts));
            }
            b.append(row.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    private static String abbreviate(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "~";
    }
}
