package dev.fulcrum.admin;

import dev.fulcrum.engine.EngineException;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;

/** Checks shared by the admin API and the in-process client; messages name the field and the value. */
final class Validation {
    private Validation() {
    }

    /** A config problem list as one 400 message, e.g. {@code type: unknown strategy (got: "x")}. */
    static String message(dev.fulcrum.config.ConfigException e) {
        return String.join("; ", e.problems().stream().map(dev.fulcrum.config.ConfigProblem::describe).toList());
    }

    static void backend(String id, String url, int weight) {
        id(id, "");
        refuse("url", Limits.url(url), url);
        weight(weight, "weight");
    }

    /** A backend's labels, the first problem named by its label ({@code labels.cost: ...}) or {@code labels}. */
    static void labels(java.util.Map<String, String> labels) {
        for (Violation v : Limits.labels(labels)) {
            refuse(v.field(), v.message(), v.value());
        }
    }

    /** A weight, {@code field} its path in the body ({@code weight}, {@code add[1].weight}, {@code weights.a}). */
    static void weight(int weight, String field) {
        refuse(field, Limits.weight(weight), weight);
    }

    /** A backend id as every command takes it; {@code at} goes before the field name ({@code add[1].}). */
    static void id(String id, String at) {
        refuse(at + "id", Limits.id(id), id);
    }

    private static void refuse(String field, String problem, Object value) {
        if (problem != null) {
            throw new EngineException(400, new Violation(field, problem, value).describe());
        }
    }
}
