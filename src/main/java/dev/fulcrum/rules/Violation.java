package dev.fulcrum.rules;

import java.math.BigDecimal;

/**
 * One broken limit: the field (relative to the object checked, e.g. {@code tableSize} or {@code weights.cpu}), what
 * is wrong with it, and the value found. The config reader puts the JSON path in front; the engine and the admin API
 * answer 400 with {@link #describe()}.
 *
 * <p>Example: {@code new Violation("tableSize", "must be prime (e.g. 65537)", 65536).describe()} is
 * {@code tableSize: must be prime (e.g. 65537) (got: 65536)}.
 */
public record Violation(String field, String message, Object value) {
    /** Longer values are cut: a problem line must stay one readable line. */
    public static final int MAX_VALUE_CHARS = 80;

    /** {@code <field>: <message> (got: <value>)}. */
    public String describe() {
        return field + ": " + message + " (got: " + shown(value) + ")";
    }

    /** A value as the program read it: strings bare, null as {@code null}, whole doubles without {@code .0}. */
    public static String shown(Object value) {
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

    /** {@code s} on one line and at most {@value #MAX_VALUE_CHARS} characters. */
    public static String cut(String s) {
        String oneLine = s.replace("\r", "\\r").replace("\n", "\\n");
        return oneLine.length() <= MAX_VALUE_CHARS ? oneLine : oneLine.substring(0, MAX_VALUE_CHARS - 3) + "...";
    }
}
