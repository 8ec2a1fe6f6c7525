package dev.fulcrum.spi;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * A backend as a plugin sees it: read-only, and current as of the snapshot the picker was made from (its in-flight
 * count is live).
 */
public interface Candidate {

    /** The backend's id, e.g. {@code api-1}. */
    String id();

    /**
     * The weight it balances with now: its configured weight (1-1000), lower while slow start ramps it up. A backend
     * at weight 0 is never a candidate.
     */
    double weight();

    /** Its labels ({@code backends[i].labels} in a config), sorted by name; empty when it has none. */
    Map<String, String> labels();

    /** The label called {@code name}, or null. */
    default String label(String name) {
        return labels().get(name);
    }

    /**
     * The label called {@code name} read as a decimal number ({@code "0.2"}, {@code "12"}, {@code "-1e3"}); empty
     * when it is missing or not a finite number.
     */
    default OptionalDouble numericLabel(String name) {
        String v = label(name);
        if (v == null) {
            return OptionalDouble.empty();
        }
        try {
            double d = Double.parseDouble(v.trim());
            return Double.isFinite(d) ? OptionalDouble.of(d) : OptionalDouble.empty();
        } catch (NumberFormatException notANumber) {
            return OptionalDouble.empty();
        }
    }

    /** Requests in flight to it now. */
    int inFlight();

    /** Whether it is a backup (used only while no other backend is available). */
    boolean backup();
}
