package dev.fulcrum.config;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.fulcrum.engine.routing.ValueMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One condition of a route's {@code match}: a JSON string is the exact value ({@code "X-Canary": "1"}); an object
 * gives exactly one of {@code prefix}, {@code regex} (found anywhere in the value unless anchored), {@code present}
 * or {@code absent} ({@code {"present": true}}). Written back as it was read.
 */
public record MatchValue(String exact, String prefix, String regex, Boolean present, Boolean absent) {
    public static final MatchValue DEFAULTS = new MatchValue(null, null, null, null, null);
    /** What a match value must be, as a refusal says it. */
    static final String RULE = "must be a string, or an object with one of prefix, regex, present, absent";

    public static MatchValue exactly(String value) {
        return new MatchValue(value, null, null, null, null);
    }

    /** How many conditions it gives (one is right). */
    int conditions() {
        return given().size();
    }

    /** The names of the conditions it gives, in the order of the record ({@code [prefix, regex]}). */
    List<String> given() {
        List<String> out = new ArrayList<>();
        Object[] values = {exact, prefix, regex, present, absent};
        String[] names = {"exact", "prefix", "regex", "present", "absent"};
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                out.add(names[i]);
            }
        }
        return out;
    }

    /** The engine's matcher; call on a value that passed validation. */
    ValueMatcher toMatcher() {
        if (exact != null) {
            return ValueMatcher.exact(exact);
        }
        if (prefix != null) {
            return ValueMatcher.prefix(prefix);
        }
        if (regex != null) {
            return ValueMatcher.regex(regex);
        }
        if (present != null) {
            return present ? ValueMatcher.present() : ValueMatcher.absent();
        }
        return absent ? ValueMatcher.absent() : ValueMatcher.present();
    }

    /** The JSON it was read from: the bare string for an exact value, else the object. */
    @JsonValue
    Object json() {
        if (exact != null) {
            return exact;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        if (prefix != null) {
            m.put("prefix", prefix);
        }
        if (regex != null) {
            m.put("regex", regex);
        }
        if (present != null) {
            m.put("present", present);
        }
        if (absent != null) {
            m.put("absent", absent);
        }
        return m;
    }
}
