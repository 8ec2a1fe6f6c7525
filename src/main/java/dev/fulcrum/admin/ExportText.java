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

    /** {@code s} as a regular expression matching exactly that text (PCRE, RE2 and Java read it alike). */
    static String regexLiteral(String s) {
        return s.replaceAll("([\\\\.^$|?*+()\\[\\]{}])", "\\\\$1");
    }

    /** A route in a few words for a comment: what it matches and where it sends. */
    static String describe(dev.fulcrum.config.RouteConfig r) {
        StringBuilder b = new StringBuilder();
        b.append(r.prefix() == null ? "any path" : r.prefix());
        dev.fulcrum.config.RouteMatchConfig m = r.match();
        if (m != null) {
            if (m.host() != null) {
                b.append(", host ").append(matchText(m.host()));
            }
            if (m.method() != null && !m.method().isEmpty()) {
                b.append(", method ").append(String.join("|", m.method()));
            }
            named(b, "header", m.headers());
            named(b, "cookie", m.cookies());
            named(b, "query", m.query());
        }
        if (r.split() != null) {
            b.append(" -> split");
            r.split().forEach(a -> b.append(' ').append(a.pool()).append('=').append(a.weight()));
            b.append(" sticky by ").append(r.stickyBy() == null ? "none" : r.stickyBy());
        } else {
            b.append(" -> pool ").append(r.pool());
        }
        if (r.stripPrefix()) {
            b.append(", prefix stripped");
        }
        if (r.mirror() != null) {
            b.append(", mirror ").append(number(r.mirror().percent())).append("% to ").append(r.mirror().pool());
        }
        if (r.routeClass() != null) {
            b.append(", class ").append(r.routeClass());
        }
        return oneLine(b.toString());
    }

    private static void named(StringBuilder b, String what, java.util.Map<String, dev.fulcrum.config.MatchValue> m) {
        if (m != null) {
            m.forEach((k, v) -> b.append(", ").append(what).append(' ').append(k).append(' ').append(matchText(v)));
        }
    }

    /** A match value in words: {@code = 1}, {@code prefix x}, {@code regex ^a}, {@code present}, {@code absent}. */
    static String matchText(dev.fulcrum.config.MatchValue v) {
        if (v.exact() != null) {
            return "= " + v.exact();
        }
        if (v.prefix() != null) {
            return "prefix " + v.prefix();
        }
        if (v.regex() != null) {
            return "regex " + v.regex();
        }
        boolean present = v.present() != null ? v.present() : !Boolean.TRUE.equals(v.absent());
        return present ? "present" : "absent";
    }

    /** True when the match value asks for the name to be there (present) or not (absent), not for a value. */
    static Boolean presence(dev.fulcrum.config.MatchValue v) {
        if (v.exact() != null || v.prefix() != null || v.regex() != null) {
            return null;
        }
        return v.present() != null ? v.present() : !Boolean.TRUE.equals(v.absent());
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
