package dev.fulcrum.config;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fulcrum.rules.Violation;

/** JSON paths and value rendering shared by the binder and the validator. */
final class ConfigPaths {
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
        return Violation.shown(value);
    }

    static String cut(String s) {
        return Violation.cut(s);
    }
}
