package dev.fulcrum.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.ValueMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code routes[i].match} (docs/REFERENCE.md §2.1): every condition given must hold. {@code headers}, {@code cookies}
 * and {@code query} map a name to a value ({@link MatchValue}: an exact text, or one of {@code prefix}, {@code regex},
 * {@code present}, {@code absent}); header names are compared without regard to case, the host without its port.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RouteMatchConfig(String pathPrefix, MatchValue host, List<String> method, Map<String, MatchValue> headers,
                               Map<String, MatchValue> cookies, Map<String, MatchValue> query) {
    public static final RouteMatchConfig DEFAULTS = new RouteMatchConfig(null, null, null, null, null, null);

    /** True when it gives nothing but a path prefix. */
    boolean pathOnly() {
        return host == null && (method == null || method.isEmpty()) && empty(headers) && empty(cookies) && empty(query);
    }

    private static boolean empty(Map<String, MatchValue> m) {
        return m == null || m.isEmpty();
    }

    /** The engine's matcher, with {@code prefix} (this one's or the route's) as its path prefix. */
    RouteMatch toMatch(String prefix) {
        Set<String> methods = new LinkedHashSet<>();
        if (method != null) {
            method.forEach(m -> methods.add(m.toUpperCase(Locale.ROOT)));
        }
        return new RouteMatch(prefix, host == null ? null : host.toMatcher().ignoringCase(), methods, named(headers),
                named(cookies), named(query));
    }

    private static List<RouteMatch.Named> named(Map<String, MatchValue> values) {
        List<RouteMatch.Named> out = new ArrayList<>();
        if (values != null) {
            values.forEach((name, v) -> out.add(new RouteMatch.Named(name, v.toMatcher())));
        }
        return out;
    }
}
