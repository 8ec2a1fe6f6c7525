package dev.fulcrum.config;

/**
 * One thing wrong with a config: where (a JSON path such as {@code backends[1].weight}; {@code $} is the whole
 * document), what, and the offending value as text.
 *
 * <p>{@link #toString()} is the docs/REFERENCE.md §1 line: {@code config error: backends[1].weight: must be between 0 and 1000
 * (got: -3)}. Values are shown as the program read them: a string is shown bare ({@code got: nope}) when its content
 * is wrong, and as JSON ({@code got: "abc"}) when its JSON type is wrong.
 *
 * @param path    JSON path of the field
 * @param message what is wrong, e.g. {@code must be between 0 and 1000}
 * @param value   the value found, e.g. {@code -3}; {@code null} for a JSON null, {@code missing} for an absent field
 */
public record ConfigProblem(String path, String message, String value) {
    public static final String ROOT = "$";

    /** {@code <path>: <message> (got: <value>)}, the form the admin API puts in its {@code errors} array. */
    public String describe() {
        return path + ": " + message + " (got: " + value + ")";
    }

    /** The docs/REFERENCE.md §1 line, {@code config error: <path>: <message> (got: <value>)}. */
    @Override
    public String toString() {
        return "config error: " + describe();
    }
}
