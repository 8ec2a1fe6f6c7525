package dev.fulcrum.admin;

import dev.fulcrum.config.ConfigValidator;
import dev.fulcrum.engine.EngineException;

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
        String urlProblem = url == null ? "required" : ConfigValidator.urlProblem(url);
        if (urlProblem != null) {
            throw new EngineException(400, "url: " + urlProblem + " (got: " + url + ")");
        }
        if (weight < 0 || weight > 1000) {
            throw new EngineException(400, "weight: must be between 0 and 1000 (got: " + weight + ")");
        }
    }

    /** A backend id as every command takes it; {@code at} goes before the field name ({@code add[1].}). */
    static void id(String id, String at) {
        if (id == null || !ConfigValidator.ID.matcher(id).matches()) {
            throw new EngineException(400, at + "id: must be 1-64 characters of A-Z a-z 0-9 . _ - (got: " + id + ")");
        }
    }
}
