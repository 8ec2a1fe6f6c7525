package dev.fulcrum.admin;

import java.util.Locale;

/** Small text helpers shared by the export writers: durations, hashing keys, line building. */
final class ExportText {
    private ExportText() {
    }

    /** A hashing key of docs/REFERENCE.md §2.2: {@code ip}, {@code path}, {@code header:NAME}, {@code cookie:NAME}, {@code query:NAME}. */
    record Key(String kind, String name) {
        static Key parse(String key) {
            String k = key == null ? "ip" : key;
            int colon = k.indexOf(':');
            if (colon < 0) {
                return new Key(k.toLowerCase(Locale.ROOT), null);
            }
            return new Key(k.substring(0, colon).toLowerCase(Locale.ROOT), k.substring(colon + 1));
        }

        boolean isIp() {
            return "ip".equals(kind) || name == null && !"path".equals(kind);
        }

        @Override
        public String toString() {
            return name == null ? kind : kind + ":" + name;
        }
    }

    /** Milliseconds as an nginx / HAProxy time: {@code 3s} when whole seconds, else {@code 250ms}. */
    static String time(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** A number without a needless ".0": 50.0 -> 50, 1.25 -> 1.25. */
    static String number(double d) {
        return d == Math.rint(d) && !Double.isInfinite(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** Milliseconds as a protobuf JSON/YAML duration: {@code 3s}, {@code 0.250s}. */
    static String duration(long ms) {
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return String.format(Locale.ROOT, "%d.%03ds", ms / 1000, ms % 1000);
    }

    /** A YAML double-quoted scalar (JSON string rules, which YAML accepts). */
    static String yamlString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** Text for a comment: one line, no control characters. */
    static String oneLine(String s) {
        return s == null ? "null" : s.replaceAll("[\\r\\n\\t]", " ");
    }

    /** Appends lines at an indent; {@code line("")} appends a blank line. */
    static final class Lines {
        private final StringBuilder out = new StringBuilder();
        private final String unit;
        private int indent;

        /** @param unit one level of indentation, e.g. four spaces for nginx, two for YAML */
        Lines(String unit) {
            this.unit = unit;
        }

        Lines line(String text) {
            if (!text.isEmpty()) {
                out.append(unit.repeat(indent)).append(text);
            }
            out.append('\n');
            return this;
        }

        Lines comment(String text) {
            return line("# " + oneLine(text));
        }

        Lines in() {
            indent++;
            return this;
        }

        Lines out() {
            indent--;
            return this;
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }
}
