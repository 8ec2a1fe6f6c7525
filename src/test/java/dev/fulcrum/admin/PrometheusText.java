package dev.fulcrum.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, for the {@code /metrics} tests. The Prometheus
 * Java artifacts only write this format (no parser is published for Java), so the test parses it itself and
 * refuses anything a Prometheus server would refuse: bad metric or label names, bad escapes, unparsable values,
 * a sample whose family has no {@code # TYPE} before it, a family typed twice, duplicate series, histogram
 * buckets that are not cumulative or lack {@code le="+Inf"} equal to {@code _count}.
 */
final class PrometheusText {
    private static final Pattern METRIC = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    record Sample(String name, Map<String, String> labels, double value) {
    }

    record Family(String name, String type, List<Sample> samples) {
        /** The value of the series with exactly these labels (name without suffix), or null. */
        Double value(String sampleName, Map<String, String> labels) {
            for (Sample s : samples) {
                if (s.name().equals(sampleName) && s.labels().equals(labels)) {
                    return s.value();
                }
            }
            return null;
        }
    }

    private PrometheusText() {
    }

    static Map<String, Family> parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException("the exposition must end with a line feed");
        }
        Map<String, Family> families = new LinkedHashMap<>();
        Set<String> series = new java.util.HashSet<>();
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            try {
                if (line.startsWith("#")) {
                    String[] parts = line.split(" ", 4);
                    if (parts.length >= 3 && parts[1].equals("TYPE")) {
                        if (parts.length != 4 || !METRIC.matcher(parts[2]).matches() || !TYPES.contains(parts[3])) {
                            throw new IllegalArgumentException("bad TYPE line");
                        }
                        if (families.containsKey(parts[2])) {
                            throw new IllegalArgumentException("family typed twice: " + parts[2]);
                        }
                        families.put(parts[2], new Family(parts[2], parts[3], new ArrayList<>()));
                    } else if (parts.length >= 3 && parts[1].equals("HELP")) {
                        if (!METRIC.matcher(parts[2]).matches()) {
                            throw new IllegalArgumentException("bad HELP line");
                        }
                    }
                    continue;
                }
                Sample s = sample(line);
                Family f = familyOf(families, s.name());
                if (f == null) {
                    throw new IllegalArgumentException("sample before its # TYPE: " + s.name());
                }
                if (!series.add(s.name() + s.labels())) {
                    throw new IllegalArgumentException("duplicate series " + s.name() + s.labels());
                }
                f.samples().add(s);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("line " + lineNo + ": " + e.getMessage() + ": " + line, e);
            }
        }
        for (Family f : families.values()) {
            if (f.type().equals("histogram")) {
                checkHistogram(f);
            }
        }
        return families;
    }

    private static Family familyOf(Map<String, Family> families, String sample) {
        Family f = families.get(sample);
        if (f != null) {
            return f;
        }
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            if (sample.endsWith(suffix)) {
                Family base = families.get(sample.substring(0, sample.length() - suffix.length()));
                if (base != null && (base.type().equals("histogram") || base.type().equals("summary"))
                        && !(suffix.equals("_bucket") && base.type().equals("summary"))) {
                    return base;
                }
            }
        }
        return null;
    }

    private static Sample sample(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        if (!METRIC.matcher(name).matches()) {
            throw new IllegalArgumentException("bad metric name " + name);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i++;
            while (true) {
                if (i < n && line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0) {
                    throw new IllegalArgumentException("label without =");
                }
                String label = line.substring(i, eq);
                if (!LABEL.matcher(label).matches() || labels.containsKey(label)) {
                    throw new IllegalArgumentException("bad or repeated label name " + label);
                }
                i = eq + 1;
                if (i >= n || line.charAt(i) != '"') {
                    throw new IllegalArgumentException("label value not quoted");
                }
                i++;
                StringBuilder v = new StringBuilder();
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException("unterminated label value");
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\') {
                        char e = i < n ? line.charAt(i++) : 0;
                        switch (e) {
                            case '\\' -> v.append('\\');
                            case '"' -> v.append('"');
                            case 'n' -> v.append('\n');
                            default -> throw new IllegalArgumentException("bad escape \\" + e);
                        }
                    } else {
                        v.append(c);
                    }
                }
                labels.put(label, v.toString());
                if (i < n && line.charAt(i) == ',') {
                    i++;
                } else if (i >= n || line.charAt(i) != '}') {
                    throw new IllegalArgumentException("expected , or } after a label");
                }
            }
        }
        if (i >= n || line.charAt(i) != ' ') {
            throw new IllegalArgumentException("expected a space before the value");
        }
        String[] rest = line.substring(i + 1).split(" ");
        if (rest.length < 1 || rest.length > 2) {
            throw new IllegalArgumentException("expected a value and an optional timestamp");
        }
        double value = number(rest[0]);
        if (rest.length == 2) {
            Long.parseLong(rest[1]);
        }
        return new Sample(name, labels, value);
    }

    private static double number(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                if (!s.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
                    throw new IllegalArgumentException("bad value " + s);
                }
                yield Double.parseDouble(s);
            }
        };
    }

    /** Buckets of each series are cumulative, end at le="+Inf", and +Inf equals _count. */
    private static void checkHistogram(Family f) {
        Map<Map<String, String>, List<Sample>> bySeries = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        for (Sample s : f.samples()) {
            if (s.name().endsWith("_bucket")) {
                Map<String, String> key = new LinkedHashMap<>(s.labels());
                String le = key.remove("le");
                if (le == null) {
                    throw new IllegalArgumentException(f.name() + ": bucket without le");
                }
                number(le);
                bySeries.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            } else if (s.name().endsWith("_count")) {
                counts.put(s.labels(), s.value());
            }
        }
        bySeries.forEach((key, buckets) -> {
            double last = -1;
            double lastLe = Double.NEGATIVE_INFINITY;
            for (Sample b : buckets) {
                double le = number(b.labels().get("le"));
                if (le <= lastLe || b.value() < last) {
                    throw new IllegalArgumentException(f.name() + key + ": buckets not cumulative");
                }
                lastLe = le;
                last = b.value();
            }
            if (lastLe != Double.POSITIVE_INFINITY || !Double.valueOf(last).equals(counts.get(key))) {
                throw new IllegalArgumentException(f.name() + key + ": +Inf bucket missing or not equal to _count");
            }
        });
    }
}
