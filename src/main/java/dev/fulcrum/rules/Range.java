package dev.fulcrum.rules;

/**
 * An inclusive range of whole numbers, with the error wording every caller shares.
 *
 * <p>Example: {@code new Range(0, 1000).problem(-3)} is {@code "must be between 0 and 1000"}, which a caller
 * turns into {@code weight: must be between 0 and 1000 (got: -3)}; {@code problem(1000)} is null.
 */
public record Range(long min, long max) {
    public Range {
        if (min > max) {
            throw new IllegalArgumentException("min: must not exceed max (got: " + min + " > " + max + ")");
        }
    }

    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** What is wrong with {@code value}, or null when it is in range. */
    public String problem(long value) {
        return contains(value) ? null : "must be between " + min + " and " + max;
    }
}
