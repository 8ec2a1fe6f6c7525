package dev.fulcrum.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;

/** JSON paths and value rendering shared by the binder and the validator. */
final class ConfigPaths {
    /** Longer values are cut: a problem line must stay one readable line. */
    static final int MAX_VALUE_CHARS = 80;

    private ConfigPaths() {
    }

    /** {@code parent.name}; a bare {@code name} at the top (empty parent or {@code $}). */
    static String child(String parent, String name) {
        return parent == null || parent.isEmpty() || parent.equals(ConfigProblem.ROOT) ? name : parent + "." + name;
    }

    static String index(String parent, int i) {
        return parent + "[" + i + "]";
    }

    /** A JSON value as written: strings keep their quotes, so {@code "abc"} for a string where a number belongs. */
    static String json(JsonNode node) {
        return cut(node.toString());
    }

    /** A value as the program read it: strings bare, null as {@code null}, whole doubles without {@code .0}. */
    static String plain(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Double d) {
            if (!Double.isFinite(d)) {
                return d.toString();
            }
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        return cut(String.valueOf(value));
    }

    static String cut(String s) {
        String oneLine = s.replace("\r", "\\r").replace("\n", "\\n");
        return oneLine.length() <= MAX_VALUE_CHARS ? oneLine : oneLine.substring(0, MAX_VALUE_CHARS - 3) + "...";
    }
}
